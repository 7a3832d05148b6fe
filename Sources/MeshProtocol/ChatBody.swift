/// The body of a chat message (kind 0x02): the sender's public keys and the text.
///
/// The keys travel with every message so any node can check the self-certifying origin
/// ID and the signature, even three hops from a sender whose join notice it never saw.
/// For a direct message this body is the plaintext inside the end-to-end seal.
public struct ChatBody: Equatable, Sendable {
    /// The body format version.
    public static let currentVersion: UInt8 = 1
    /// The length of a compressed P-256 public key.
    public static let compressedKeyLength = 33
    /// The longest text, in UTF-8 bytes.
    public static let maxTextLength = 4096

    /// The sender's signing public key, compressed (33 bytes).
    public var signingKey: [UInt8]
    /// The sender's key-agreement public key, compressed (33 bytes).
    public var agreementKey: [UInt8]
    /// The message text.
    public var text: String

    /// Creates a body.
    public init(signingKey: [UInt8], agreementKey: [UInt8], text: String) {
        self.signingKey = signingKey
        self.agreementKey = agreementKey
        self.text = text
    }

    /// Encodes the body: version ‖ signing key ‖ agreement key ‖ text length (UInt16) ‖ text.
    public func encoded() -> [UInt8] {
        let textBytes = Array(text.utf8)
        var writer = ByteWriter(capacity: 1 + 2 * Self.compressedKeyLength + 2 + textBytes.count)
        writer.write(Self.currentVersion)
        writer.write(bytes: signingKey)
        writer.write(bytes: agreementKey)
        writer.write(UInt16(truncatingIfNeeded: textBytes.count))
        writer.write(bytes: textBytes)
        return writer.bytes
    }

    /// Decodes a body; every length is checked before use.
    public init<Bytes: Sequence>(decoding bytes: Bytes) throws(WireError) where Bytes.Element == UInt8 {
        var reader = ByteReader(bytes)
        let version = try reader.readUInt8()
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let signingKey = try reader.readBytes(Self.compressedKeyLength)
        let agreementKey = try reader.readBytes(Self.compressedKeyLength)
        let length = Int(try reader.readUInt16())
        guard length <= Self.maxTextLength else {
            throw .lengthOutOfRange(field: "text", value: length, limit: Self.maxTextLength)
        }
        guard let text = String(validating: try reader.readBytes(length), as: UTF8.self) else {
            throw .invalidText(field: "text")
        }
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        self.init(signingKey: signingKey, agreementKey: agreementKey, text: text)
    }
}
