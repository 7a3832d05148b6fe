/// The `identity.key` file format: magic, version, the two private scalars, a checksum.
///
/// Layout (101 bytes): "MNID" (4) ‖ version 0x01 (1) ‖ signing scalar (32) ‖
/// agreement scalar (32) ‖ SHA-256 of the preceding 69 bytes (32).
enum IdentityFile {
    /// The file magic.
    static let magic = Array("MNID".utf8)
    /// The format version.
    static let version: UInt8 = 1
    /// The exact file length.
    static let length = 4 + 1 + 32 + 32 + 32

    /// Encodes an identity's private scalars.
    static func encode(_ identity: NodeIdentity) throws(CryptoError) -> [UInt8] {
        let body = magic + [version] + (try identity.signingKey.rawRepresentation())
            + (try identity.agreementKey.rawRepresentation())
        return body + (try SHA256Digest.hash(body))
    }

    /// Decodes a file's bytes, or explains what is wrong with them.
    static func decode(_ bytes: [UInt8]) throws(IdentityFileProblem) -> NodeIdentity {
        guard bytes.count == length else { throw .wrongLength(bytes.count) }
        guard Array(bytes[0..<4]) == magic else { throw .badMagic }
        guard bytes[4] == version else { throw .unsupportedVersion(bytes[4]) }
        let checksum: [UInt8]
        do throws(CryptoError) {
            checksum = try SHA256Digest.hash(Array(bytes[0..<69]))
        } catch {
            throw .invalidKey(error)
        }
        guard checksum == Array(bytes[69...]) else { throw .checksumMismatch }
        do throws(CryptoError) {
            return try NodeIdentity(
                signingKey: P256SigningKey(rawRepresentation: Array(bytes[5..<37])),
                agreementKey: P256KeyAgreementKey(rawRepresentation: Array(bytes[37..<69])))
        } catch {
            throw .invalidKey(error)
        }
    }
}
