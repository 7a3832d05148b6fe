import Flooding
import MeshProtocol

/// Why the engine dropped a frame or an envelope: one value for logs, `relayctl watch` and tests.
///
/// `code` is the stable name that goes into the journal's `MESHNODE_REASON` field; `detail`
/// carries the decoder's or the crypto layer's own words where there are any.
public enum DropCause: Equatable, Sendable, CustomStringConvertible {
    /// A frame the reassembler refused.
    case fragment(String)
    /// A reassembled message of a kind this version does not know.
    case unknownKind(UInt8)
    /// A key exchange that did not decode or verify.
    case keyExchange(String)
    /// A sealed packet on a link that has no keys yet.
    case unkeyed
    /// A link packet that failed to open (wrong key, altered bytes, replay).
    case linkSeal(String)
    /// A link packet whose envelope did not decode or disagreed with the packet.
    case envelope(String)
    /// A heartbeat relayed, or not from the link's own neighbour.
    case foreignHeartbeat
    /// A key exchange inside a link seal (it must travel in the clear).
    case sealedKeyExchange
    /// A profile that did not verify or named another node.
    case profile(String)
    /// A message or join notice whose signature or carried keys did not verify.
    case unverifiable(String)
    /// A relay rule: seen, looped or hop limit spent.
    case rule(DropReason)
    /// A direct message for us that did not open or verify.
    case directMessage(String)
    /// A message or join notice from a neighbour that had spent its share (``BudgetLimits``).
    case overShare
    /// A message or join notice left unverified because the signature-check budget was spent.
    case verificationBudget
    /// A link acknowledgement that opened but did not decode, or named counters never sealed (PROTOCOL.md D12).
    case acknowledgement(String)

    /// The stable machine name (`fragment`, `link_seal`, `seen`, ...).
    public var code: String {
        switch self {
        case .fragment: "fragment"
        case .unknownKind: "unknown_kind"
        case .keyExchange: "key_exchange"
        case .unkeyed: "unkeyed"
        case .linkSeal: "link_seal"
        case .envelope: "envelope"
        case .foreignHeartbeat: "foreign_heartbeat"
        case .sealedKeyExchange: "sealed_key_exchange"
        case .profile: "profile"
        case .unverifiable: "unverifiable"
        case .rule(let reason): reason == .ttlSpent ? "ttl_spent" : reason.rawValue
        case .directMessage: "direct_message"
        case .overShare: "over_share"
        case .verificationBudget: "verification_budget"
        case .acknowledgement: "acknowledgement"
        }
    }

    /// True for drops that break a link's handshake (a key exchange or a profile).
    public var isHandshakeFailure: Bool {
        switch self {
        case .keyExchange, .profile, .sealedKeyExchange: true
        default: false
        }
    }

    /// The code with the detail, for log lines.
    public var description: String {
        switch self {
        case .fragment(let detail), .keyExchange(let detail), .linkSeal(let detail), .envelope(let detail),
            .profile(let detail), .unverifiable(let detail), .directMessage(let detail), .acknowledgement(let detail):
            "\(code): \(detail)"
        case .unknownKind(let kind): "\(code) \(kind)"
        case .unkeyed: "no link key yet"
        case .foreignHeartbeat: "heartbeat not from the link's neighbour"
        case .sealedKeyExchange: "sealed key exchange"
        case .rule(let reason): reason.rawValue
        case .overShare: "the neighbour spent its share"
        case .verificationBudget: "signature-check budget spent"
        }
    }
}
