import MeshLink
import MeshProtocol

/// One datagram: an 18-byte header, then a type-specific body.
///
/// Header: type (1) · flags (1, bit 0 = sender is the link's central) · sender instance (8) ·
/// link nonce (8, chosen by the central). Integers are big-endian.
public struct UDPDatagram: Equatable, Sendable {
    /// The header length in bytes.
    public static let headerLength = 18
    /// The largest frame size a link may offer (`LinkInfo.frameSizes`, as on BLE).
    public static let maxFrameSize = LinkInfo.frameSizes.upperBound
    /// The smallest frame size a link may offer.
    public static let minFrameSize = LinkInfo.frameSizes.lowerBound
    /// The longest datagram accepted.
    public static let maxLength = headerLength + maxFrameSize

    /// What the datagram says.
    public var type: UDPDatagramType
    /// True when the sender is the central of the link.
    public var fromCentral: Bool
    /// The sender's random instance number; a restarted process has a new one.
    public var instance: UInt64
    /// The link's random nonce, chosen by its central.
    public var linkNonce: UInt64
    /// The body: an MTU for connect and accept, a frame for frame, empty otherwise.
    public var body: [UInt8]

    /// Creates a datagram.
    public init(type: UDPDatagramType, fromCentral: Bool, instance: UInt64, linkNonce: UInt64, body: [UInt8] = []) {
        self.type = type
        self.fromCentral = fromCentral
        self.instance = instance
        self.linkNonce = linkNonce
        self.body = body
    }

    /// The MTU carried by connect and accept.
    public var mtu: Int? {
        guard type == .connect || type == .accept, body.count == 2 else { return nil }
        return Int(body[0]) << 8 | Int(body[1])
    }

    /// The challenge carried by challenge and answer.
    public var challengeValue: UInt64? {
        guard (type == .challenge && body.count == 8) || (type == .answer && body.count == 9) else { return nil }
        return body.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The verdict carried by an answer.
    public var verdict: UDPAnswerVerdict? {
        guard type == .answer, body.count == 9 else { return nil }
        return UDPAnswerVerdict(rawValue: body[8])
    }

    /// Encodes a challenge body (8 bytes, big-endian).
    public static func challengeBody(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }

    /// Encodes an answer body: the challenge, then the verdict.
    public static func answerBody(_ value: UInt64, verdict: UDPAnswerVerdict) -> [UInt8] { challengeBody(value) + [verdict.rawValue] }

    /// Encodes an MTU body.
    public static func mtuBody(_ mtu: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: mtu >> 8), UInt8(truncatingIfNeeded: mtu)] }

    /// The wire bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.headerLength + body.count)
        writer.write(type.rawValue)
        writer.write(fromCentral ? UInt8(1) : 0)
        writer.write(instance)
        writer.write(linkNonce)
        writer.write(bytes: body)
        return writer.bytes
    }

    /// Decodes and checks a datagram: length, type, flags, and the body each type allows.
    public init(decoding bytes: [UInt8]) throws(UDPDatagramError) {
        guard bytes.count >= Self.headerLength else { throw .truncated(bytes.count) }
        guard bytes.count <= Self.maxLength else { throw .oversized(bytes.count) }
        guard let type = UDPDatagramType(rawValue: bytes[0]) else { throw .unknownType(bytes[0]) }
        guard bytes[1] & 0xfe == 0 else { throw .malformed("reserved flag bits \(bytes[1])") }
        var reader = ByteReader(bytes[2...])
        guard let instance = try? reader.readUInt64(), let nonce = try? reader.readUInt64() else {
            throw .truncated(bytes.count)
        }
        self.init(type: type, fromCentral: bytes[1] == 1, instance: instance, linkNonce: nonce, body: reader.readRest())
        switch type {
        case .connect, .accept:
            guard let mtu, (Self.minFrameSize...Self.maxFrameSize).contains(mtu) else { throw .malformed("bad MTU body") }
            guard fromCentral == (type == .connect) else { throw .malformed("\(type) from the wrong role") }
        case .keepalive, .close:
            guard body.isEmpty else { throw .malformed("\(type) with a body") }
        case .challenge:
            guard body.count == 8 else { throw .malformed("challenge body of \(body.count) bytes") }
        case .answer:
            guard body.count == 9, verdict != nil else { throw .malformed("bad answer body") }
        case .frame:
            break
        }
    }
}
