import COpenSSL

/// Algorithm implementations fetched once per process and shared.
///
/// `@unchecked Sendable`: fetched `EVP_MD`/`EVP_CIPHER`/`EVP_KDF`/`EVP_MAC` objects are immutable and
/// documented as shareable between threads; they live for the whole process.
final class Algorithms: @unchecked Sendable {
    /// The shared set.
    static let shared = Algorithms()

    /// SHA-256, or nil if the provider could not supply it.
    let sha256: OpaquePointer?
    /// HKDF, or nil if the provider could not supply it.
    let hkdf: OpaquePointer?
    /// The HMAC MAC (its digest chosen per context), or nil if the provider could not supply it.
    let hmac: OpaquePointer?
    /// AES-GCM keyed by key length in bytes (16, 24, 32).
    let aesGCM: [Int: OpaquePointer]

    private init() {
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        hkdf = EVP_KDF_fetch(nil, "HKDF", nil)
        hmac = EVP_MAC_fetch(nil, "HMAC", nil)
        var ciphers: [Int: OpaquePointer] = [:]
        for (length, name) in [(16, "AES-128-GCM"), (24, "AES-192-GCM"), (32, "AES-256-GCM")] {
            if let cipher = EVP_CIPHER_fetch(nil, name, nil) { ciphers[length] = cipher }
        }
        aesGCM = ciphers
        ERR_clear_error()
    }

    deinit {
        EVP_MD_free(sha256)
        EVP_KDF_free(hkdf)
        EVP_MAC_free(hmac)
        for cipher in aesGCM.values { EVP_CIPHER_free(cipher) }
    }
}
