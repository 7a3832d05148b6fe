import MeshCrypto
import MeshProtocol

/// What a link has once its key exchange verified: the link seal and who is on the other end.
struct KeyedLink {
    /// Seals and opens this link's packets.
    var session: LinkSession
    /// The neighbour's identity, proven by its key exchange.
    let neighbour: NodeID
    /// When the current keys were agreed.
    var keyedAt: Duration
    /// Whether our profile went out on these keys (again only while the handshake is unfinished).
    var profileSent = false
    /// Whether the neighbour sent an opaque link packet on this link (PROTOCOL.md D14): from then
    /// on this end sends it opaque packets only. Kept across re-keys.
    var peerSendsOpaque = false
    /// The body lengths of the last real opaque packets sent here: a cover packet copies one.
    var recentOpaqueBodies = CoverSizes()

    /// Seals a real opaque packet, noting its body length for cover packets.
    mutating func sealOpaque(kind: UInt8, plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        let packet = try session.sealOpaque(kind: kind, plaintext: plaintext)
        recentOpaqueBodies.note(plaintext.count)
        return packet
    }
}
