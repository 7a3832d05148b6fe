/// The message that frames carry: one protocol value with its relay metadata.
///
/// Layout (version 1) is in docs/PROTOCOL.md. `hops` and `route` are changed by relays;
/// every other field is fixed by the origin and covered by its signature when present.
public struct Envelope: Equatable, Sendable {
    /// The wire format version this type encodes.
    public static let currentVersion: UInt8 = 1
    /// The most node IDs a route may hold.
    public static let maxRouteLength = 32
    /// The largest payload accepted, in bytes.
    public static let maxPayloadLength = 65_536
    /// The length of an origin signature (raw P-256 r ‖ s).
    public static let signatureLength = 64

    /// What the envelope carries.
    public var kind: MessageKind
    /// The random ID that the seen cache keys on.
    public var messageID: MessageID
    /// The node that created the message.
    public var origin: NodeID
    /// The node a direct message is for; nil for broadcast.
    public var destination: NodeID?
    /// How many times the message has been relayed.
    public var hops: UInt8
    /// The node IDs the message has passed, origin first.
    public var route: [NodeID]
    /// Milliseconds since the Unix epoch at the origin.
    public var timestamp: UInt64
    /// True when `payload` is an end-to-end sealed box for `destination`.
    public var isInnerSealed: Bool
    /// The kind-specific body.
    public var payload: [UInt8]
    /// The origin's signature over `signedBytes`, when present.
    public var signature: [UInt8]?

    /// Creates an envelope.
    public init(
        kind: MessageKind, messageID: MessageID, origin: NodeID, destination: NodeID? = nil,
        hops: UInt8 = 0, route: [NodeID] = [], timestamp: UInt64, isInnerSealed: Bool = false,
        payload: [UInt8] = [], signature: [UInt8]? = nil
    ) {
        self.kind = kind
        self.messageID = messageID
        self.origin = origin
        self.destination = destination
        self.hops = hops
        self.route = route
        self.timestamp = timestamp
        self.isInnerSealed = isInnerSealed
        self.payload = payload
        self.signature = signature
    }

    /// True for messages addressed to every node.
    public var isBroadcast: Bool { destination == nil }
}
