/// A node's "business card": who it is and the public keys to reach it.
///
/// Carried as the payload of profile (0x01) and join notice (0x03) envelopes, which the
/// origin signs. The node ID must equal the one derived from the two public keys.
public struct Profile: Equatable, Sendable {
    /// The longest display name, in UTF-8 bytes.
    public static let maxNameLength = 64
    /// The longest icon, in UTF-8 bytes (one emoji can take several code points).
    public static let maxIconLength = 16
    /// The length of an uncompressed (X9.63) P-256 public key.
    public static let publicKeyLength = 65

    /// The node's persistent ID.
    public var nodeID: NodeID
    /// The name people see.
    public var displayName: String
    /// A one-emoji icon.
    public var icon: String
    /// What the node is.
    public var role: NodeRole
    /// The P-256 signing (ECDSA) public key, X9.63 uncompressed.
    public var signingKey: [UInt8]
    /// The P-256 key-agreement (ECDH) public key, X9.63 uncompressed.
    public var agreementKey: [UInt8]

    /// Creates a profile.
    public init(
        nodeID: NodeID, displayName: String, icon: String, role: NodeRole,
        signingKey: [UInt8], agreementKey: [UInt8]
    ) {
        self.nodeID = nodeID
        self.displayName = displayName
        self.icon = icon
        self.role = role
        self.signingKey = signingKey
        self.agreementKey = agreementKey
    }

    /// Encodes the profile body.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 200)
        writer.write(bytes: nodeID.bytes)
        let name = Array(displayName.utf8.prefix(Self.maxNameLength))
        writer.write(UInt8(name.count))
        writer.write(bytes: name)
        let iconBytes = Array(icon.utf8.prefix(Self.maxIconLength))
        writer.write(UInt8(iconBytes.count))
        writer.write(bytes: iconBytes)
        writer.write(role.rawValue)
        writer.write(bytes: signingKey)
        writer.write(bytes: agreementKey)
        return writer.bytes
    }

    /// Decodes a profile body; every length is checked before use.
    public init<Bytes: Sequence>(decoding bytes: Bytes) throws(WireError) where Bytes.Element == UInt8 {
        var reader = ByteReader(bytes)
        let nodeID = try NodeID(from: &reader)
        let displayName = try Self.readText(&reader, field: "displayName", limit: Self.maxNameLength)
        let icon = try Self.readText(&reader, field: "icon", limit: Self.maxIconLength)
        let roleByte = try reader.readUInt8()
        guard let role = NodeRole(rawValue: roleByte) else { throw .invalidField("role \(roleByte)") }
        let signingKey = try reader.readBytes(Self.publicKeyLength)
        let agreementKey = try reader.readBytes(Self.publicKeyLength)
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        self.init(
            nodeID: nodeID, displayName: displayName, icon: icon, role: role,
            signingKey: signingKey, agreementKey: agreementKey)
    }

    private static func readText(_ reader: inout ByteReader, field: String, limit: Int) throws(WireError) -> String {
        let length = Int(try reader.readUInt8())
        guard length <= limit else { throw .lengthOutOfRange(field: field, value: length, limit: limit) }
        let bytes = try reader.readBytes(length)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidText(field: field) }
        return text
    }
}
