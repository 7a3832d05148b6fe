import COpenSSL

/// HMAC with SHA-256 (RFC 2104, vectors in RFC 4231) through OpenSSL's `EVP_MAC` "HMAC"
/// (CryptoKit `HMAC<SHA256>.authenticationCode(for:using:)`).
public enum HMACSHA256 {
    /// The length of a code in bytes.
    public static let byteCount = 32
    /// The longest key or message accepted.
    public static let maxInputLength = 1 << 16

    /// The 32-byte authentication code of `message` under `key` (1 byte up to the bound; a key
    /// longer than the block is hashed first, as RFC 2104 says). An empty key is refused.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !key.isEmpty else { throw .truncated(field: "HMAC key", size: 0, minimum: 1) }
        for (field, value) in [("HMAC key", key), ("HMAC message", message)] where value.count > maxInputLength {
            throw .tooLarge(field: field, size: value.count, limit: maxInputLength)
        }
        let mac = try OpenSSL.nonNull(Algorithms.shared.hmac, "EVP_MAC_fetch(HMAC)")
        let context = try OpenSSL.nonNull(EVP_MAC_CTX_new(mac), "EVP_MAC_CTX_new")
        defer { EVP_MAC_CTX_free(context) }
        var params = ParamList()
        params.addUTF8(OSSL_MAC_PARAM_DIGEST, "SHA256")
        let initialised = params.withParams { EVP_MAC_init(context, key, key.count, $0) }
        try OpenSSL.check(initialised, "EVP_MAC_init")
        try OpenSSL.check(EVP_MAC_update(context, message, message.count), "EVP_MAC_update")
        var code = [UInt8](repeating: 0, count: byteCount)
        var length = 0
        try OpenSSL.check(EVP_MAC_final(context, &code, &length, byteCount), "EVP_MAC_final")
        guard length == byteCount else { throw .invalidLength(field: "HMAC-SHA256", expected: byteCount, actual: length) }
        return code
    }
}
