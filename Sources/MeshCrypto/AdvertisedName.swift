import MeshProtocol

/// The local name a node advertises over BLE in one epoch (docs/PROTOCOL.md D13): 8 lowercase hex
/// characters from an HMAC of the epoch under a key only the node holds, so a listener cannot
/// link one epoch's name to another's, nor any name to the node ID.
///
/// `nameKey = HKDF-SHA256(signing scalar ‖ agreement scalar, "MeshNode advertising v1", "name key", 32)`,
/// `name = hex(HMAC-SHA256(nameKey, "MeshNode name v1" ‖ epoch as 8 bytes)[0..<4])`,
/// `epoch = mesh time in milliseconds / 3,600,000`.
public struct AdvertisedName: Sendable {
    /// The length of an epoch in milliseconds of mesh time (one hour).
    public static let epochMilliseconds: UInt64 = 3_600_000
    /// The length of a name in characters (4 bytes in hex): it fills the 31-byte advertisement exactly.
    public static let characterCount = 8
    /// The length of the name key in bytes.
    public static let keyByteCount = 32
    static let keySalt = Array("MeshNode advertising v1".utf8)
    static let keyInfo = Array("name key".utf8)
    static let nameLabel = Array("MeshNode name v1".utf8)

    /// The node's name key.
    let nameKey: [UInt8]

    /// The names of `identity`, keyed from its two private scalars.
    public init(identity: NodeIdentity) throws(CryptoError) {
        let scalars = try identity.signingKey.rawRepresentation() + identity.agreementKey.rawRepresentation()
        nameKey = try HKDFSHA256.deriveKey(inputKeyMaterial: scalars, salt: Self.keySalt, info: Self.keyInfo,
                                           outputByteCount: Self.keyByteCount)
    }

    /// The names under a given 32-byte key (tests and vectors).
    public init(nameKey: [UInt8]) throws(CryptoError) {
        guard nameKey.count == Self.keyByteCount else {
            throw .invalidLength(field: "name key", expected: Self.keyByteCount, actual: nameKey.count)
        }
        self.nameKey = nameKey
    }

    /// The epoch that mesh time `meshTime` (milliseconds since the Unix epoch) falls in.
    public static func epoch(meshTime: UInt64) -> UInt64 { meshTime / epochMilliseconds }

    /// The name advertised during `epoch`.
    public func name(epoch: UInt64) throws(CryptoError) -> String {
        var message = Self.nameLabel
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: epoch >> UInt64(shift))) }
        let code = try HMACSHA256.authenticationCode(for: message, key: nameKey)
        return Hex.encode(Array(code.prefix(Self.characterCount / 2)))
    }
}
