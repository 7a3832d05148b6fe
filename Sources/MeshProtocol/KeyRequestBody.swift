/// The body of a key request (kind 0x06): whose profile is wanted, and a tag that answers repeat.
///
/// Layout (25 bytes): version `0x01` ‖ target node ID (16) ‖ tag (8). docs/PROTOCOL.md Part H.
public struct KeyRequestBody: Equatable, Sendable {
    /// The body format version.
    public static let currentVersion: UInt8 = 1
    /// The encoded length.
    public static let length = 25

    /// The node whose profile is wanted.
    public var target: NodeID
    /// A random tag (secure random at the requester); answers carry it back.
    public var tag: UInt64

    /// Creates a body.
    public init(target: NodeID, tag: UInt64) {
        self.target = target
        self.tag = tag
    }

    /// Encodes the body.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.length)
        writer.write(Self.currentVersion)
        writer.write(bytes: target.bytes)
        writer.write(tag)
        return writer.bytes
    }

    /// Decodes a body; exactly 25 bytes.
    public init<Bytes: Sequence>(decoding bytes: Bytes) throws(WireError) where Bytes.Element == UInt8 {
        var reader = ByteReader(bytes)
        let version = try reader.readUInt8()
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let target = try NodeID(from: &reader)
        let tag = try reader.readUInt64()
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        self.init(target: target, tag: tag)
    }
}
