import MeshCrypto
import MeshProtocol

/// The envelopes a correct neighbour sends for itself: key exchanges, its profile, heartbeats.
enum LinkEnvelopes {
    /// A fresh message ID from the system's secure random source.
    static func messageID() throws -> MessageID {
        try MessageID(bytes: SecureRandom.bytes(MessageID.byteCount))
    }

    /// The unsealed envelope that carries a key exchange (PROTOCOL.md A4).
    static func keyExchange(_ message: KeyExchangeMessage, from identity: NodeIdentity) throws -> Envelope {
        Envelope(
            kind: .keyExchange, messageID: try messageID(), origin: identity.nodeID, route: [identity.nodeID],
            timestamp: WallClock.milliseconds(), payload: message.encoded())
    }

    /// The signed profile sent after keys are agreed.
    static func profile(of identity: NodeIdentity, name: String) throws -> Envelope {
        try signedProfileBody(of: identity, name: name, kind: .profile)
    }

    /// A join notice: the same signed profile body, relayed two hops.
    static func joinNotice(of identity: NodeIdentity, name: String) throws -> Envelope {
        try signedProfileBody(of: identity, name: name, kind: .joinNotice)
    }

    /// A heartbeat: empty, unsigned, link-local.
    static func heartbeat(from identity: NodeIdentity) throws -> Envelope {
        Envelope(
            kind: .heartbeat, messageID: try messageID(), origin: identity.nodeID, route: [identity.nodeID],
            timestamp: WallClock.milliseconds())
    }

    private static func signedProfileBody(of identity: NodeIdentity, name: String, kind: MessageKind) throws -> Envelope {
        let body = identity.profile(displayName: name, icon: "", role: .person).encoded()
        var envelope = Envelope(
            kind: kind, messageID: try messageID(), origin: identity.nodeID, route: [identity.nodeID],
            timestamp: WallClock.milliseconds(), payload: body)
        try EnvelopeSigner.sign(&envelope, with: identity)
        return envelope
    }
}
