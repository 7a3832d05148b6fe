import COpenSSL

/// SHA-256 (CryptoKit `SHA256.hash(data:)`).
public enum SHA256Digest {
    /// The digest length in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        let md = try OpenSSL.nonNull(Algorithms.shared.sha256, "EVP_MD_fetch(SHA256)")
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        try OpenSSL.check(EVP_Digest(data, data.count, &digest, &length, md, nil), "EVP_Digest")
        guard Int(length) == byteCount else {
            throw .invalidLength(field: "SHA-256 digest", expected: byteCount, actual: Int(length))
        }
        return digest
    }
}
