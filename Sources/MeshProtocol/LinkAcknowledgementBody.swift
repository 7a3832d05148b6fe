/// The body of a link acknowledgement (frame kind `0x08`): which of the peer's link packets this
/// end accepted under the keys that seal the acknowledgement, and how many unacknowledged packets
/// the peer may have in flight. Never an envelope, never relayed. docs/PROTOCOL.md D12.
///
/// Layout (19 bytes): version `0x01` ‖ highest counter (8) ‖ received bitmap (8) ‖ credit (2).
public struct LinkAcknowledgementBody: Equatable, Sendable {
    /// The frame kind byte that carries acknowledgements (not a ``MessageKind``: no envelope).
    public static let frameKind: UInt8 = 0x08
    /// The body format version.
    public static let currentVersion: UInt8 = 1
    /// The encoded length.
    public static let length = 19

    /// The highest link-packet counter accepted under the current keys; 0 before the first.
    public var highest: UInt64
    /// Bit `i` (least significant first) is set when counter `highest − 1 − i` was accepted.
    public var received: UInt64
    /// How many packets the peer may have sent and not yet seen acknowledged (0 pauses it).
    public var credit: UInt16

    /// Creates a body.
    public init(highest: UInt64, received: UInt64, credit: UInt16) {
        self.highest = highest
        self.received = received
        self.credit = credit
    }

    /// True when this acknowledgement says counter `counter` was accepted.
    public func acknowledges(_ counter: UInt64) -> Bool {
        guard counter > 0, counter <= highest else { return false }
        if counter == highest { return true }
        let distance = highest - counter
        return distance <= 64 && received & (1 << (distance - 1)) != 0
    }

    /// Encodes the body.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.length)
        writer.write(Self.currentVersion)
        writer.write(highest)
        writer.write(received)
        writer.write(credit)
        return writer.bytes
    }

    /// Decodes a body; exactly 19 bytes, version 1. A bitmap bit for a counter below 1 is refused.
    public init<Bytes: Sequence>(decoding bytes: Bytes) throws(WireError) where Bytes.Element == UInt8 {
        var reader = ByteReader(bytes)
        let version = try reader.readUInt8()
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let highest = try reader.readUInt64()
        let received = try reader.readUInt64()
        let credit = try reader.readUInt16()
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        // Bits name counters highest − 1 … highest − 64; those below 1 do not exist.
        if highest < 65 {
            let valid: UInt64 = highest <= 1 ? 0 : (1 << (highest - 1)) - 1
            guard received & ~valid == 0 else { throw .invalidField("acknowledgement bitmap names counters below 1") }
        }
        self.init(highest: highest, received: received, credit: credit)
    }
}
