import COpenSSL

/// HKDF with SHA-256 (RFC 5869) through OpenSSL's `EVP_KDF` "HKDF"
/// (CryptoKit `HKDF<SHA256>.deriveKey(inputKeyMaterial:salt:info:outputByteCount:)`).
public enum HKDFSHA256 {
    /// The most output bytes RFC 5869 allows with SHA-256 (255 × 32).
    public static let maxOutputByteCount = 255 * 32
    /// The longest `info` OpenSSL 3.0 accepts.
    public static let maxInfoLength = 1024
    /// The longest salt or input key material accepted.
    public static let maxInputLength = 1 << 16

    /// Derives `outputByteCount` bytes (extract-then-expand). An empty salt means HashLen zero
    /// bytes, exactly as RFC 5869 and CryptoKit define it.
    public static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        guard outputByteCount >= 1, outputByteCount <= maxOutputByteCount else {
            throw .invalidOutputLength(outputByteCount)
        }
        guard info.count <= maxInfoLength else {
            throw .tooLarge(field: "HKDF info", size: info.count, limit: maxInfoLength)
        }
        for (field, value) in [("HKDF input key material", inputKeyMaterial), ("HKDF salt", salt)]
        where value.count > maxInputLength {
            throw .tooLarge(field: field, size: value.count, limit: maxInputLength)
        }
        let kdf = try OpenSSL.nonNull(Algorithms.shared.hkdf, "EVP_KDF_fetch(HKDF)")
        let context = try OpenSSL.nonNull(EVP_KDF_CTX_new(kdf), "EVP_KDF_CTX_new")
        defer { EVP_KDF_CTX_free(context) }

        var params = ParamList()
        params.addUTF8(OSSL_KDF_PARAM_DIGEST, "SHA256")
        params.addOctets(OSSL_KDF_PARAM_KEY, inputKeyMaterial)
        if !salt.isEmpty { params.addOctets(OSSL_KDF_PARAM_SALT, salt) }
        if !info.isEmpty { params.addOctets(OSSL_KDF_PARAM_INFO, info) }

        var output = [UInt8](repeating: 0, count: outputByteCount)
        let result = params.withParams { EVP_KDF_derive(context, &output, outputByteCount, $0) }
        try OpenSSL.check(result, "EVP_KDF_derive")
        return output
    }
}
