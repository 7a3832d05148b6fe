/// The body of a key answer (kind 0x07): the request's tag and the target's signed profile
/// envelope, byte for byte as its origin signed it (hops 0, route `[target]`).
///
/// Layout: version `0x01` ‖ tag (8) ‖ target node ID (16) ‖ length (2) ‖ envelope (length).
/// docs/PROTOCOL.md Part H.
public struct KeyAnswerBody: Equatable, Sendable {
    /// The body format version.
    public static let currentVersion: UInt8 = 1
    /// The longest embedded envelope: a profile envelope with the longest name and icon
    /// and a signature (36 + 8 + 4 + 232 + 1 + 16 + 64 = 361 bytes) with room to spare.
    public static let maxEnvelopeLength = 512

    /// The tag of the request answered.
    public var tag: UInt64
    /// The node whose profile this is.
    public var target: NodeID
    /// The target's signed profile or join notice envelope, encoded (A1).
    public var profileEnvelope: [UInt8]

    /// Creates a body.
    public init(tag: UInt64, target: NodeID, profileEnvelope: [UInt8]) {
        self.tag = tag
        self.target = target
        self.profileEnvelope = profileEnvelope
    }

    /// Encodes the body.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 27 + profileEnvelope.count)
        writer.write(Self.currentVersion)
        writer.write(tag)
        writer.write(bytes: target.bytes)
        writer.write(UInt16(truncatingIfNeeded: profileEnvelope.count))
        writer.write(bytes: profileEnvelope)
        return writer.bytes
    }

    /// Decodes a body; every length is checked before use. The embedded envelope is not
    /// decoded here (see ``profile()``).
    public init<Bytes: Sequence>(decoding bytes: Bytes) throws(WireError) where Bytes.Element == UInt8 {
        var reader = ByteReader(bytes)
        let version = try reader.readUInt8()
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let tag = try reader.readUInt64()
        let target = try NodeID(from: &reader)
        let length = Int(try reader.readUInt16())
        guard length <= Self.maxEnvelopeLength else {
            throw .lengthOutOfRange(field: "profileEnvelope", value: length, limit: Self.maxEnvelopeLength)
        }
        let envelope = try reader.readBytes(length)
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        self.init(tag: tag, target: target, profileEnvelope: envelope)
    }

    /// The embedded envelope, decoded: it must be a signed profile or join notice whose origin
    /// is the target, with hops 0 and route `[target]` (its signature is checked by
    /// `ProfileVerifier`).
    public func profile() throws(WireError) -> Envelope {
        let envelope = try Envelope(decoding: profileEnvelope)
        guard envelope.kind == .profile || envelope.kind == .joinNotice else { throw .invalidField("answer kind") }
        guard envelope.origin == target, envelope.hops == 0, envelope.route == [target], envelope.signature != nil else {
            throw .invalidField("answer envelope")
        }
        return envelope
    }
}
