import COpenSSL

/// Helpers that turn OpenSSL return codes into typed errors.
enum OpenSSL {
    /// Throws unless `result` is exactly 1, OpenSSL's success value for the calls we use.
    static func check(_ result: Int32, _ function: String) throws(CryptoError) {
        guard result == 1 else { throw failure(function) }
    }

    /// Unwraps a pointer an OpenSSL constructor returned, throwing if it is NULL.
    static func nonNull<Pointer>(_ pointer: Pointer?, _ function: String) throws(CryptoError) -> Pointer {
        guard let pointer else { throw failure(function) }
        return pointer
    }

    /// Builds an error from the thread's OpenSSL error queue and clears the queue.
    static func failure(_ function: String) -> CryptoError {
        let code = ERR_get_error()
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        ERR_clear_error()
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .openSSL(function: function, reason: code == 0 ? "no error queued" : text)
    }

    /// Drops errors that an expected failure (a bad tag, a bad signature) left on the queue.
    static func clearErrors() { ERR_clear_error() }
}

/// Owns one `EVP_PKEY` and frees it when the last reference goes.
///
/// `@unchecked Sendable`: the key is never modified after it is built; every operation makes
/// its own `EVP_PKEY_CTX`/`EVP_MD_CTX`, and OpenSSL 3 documents `EVP_PKEY` objects as safe
/// for concurrent read-only use from several threads (reference counts are atomic).
final class EVPKey: @unchecked Sendable {
    /// The owned key.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }
}

/// Algorithm implementations fetched once per process and shared.
///
/// `@unchecked Sendable`: fetched `EVP_MD`/`EVP_CIPHER`/`EVP_KDF` objects are immutable and
/// documented as shareable between threads; they live for the whole process.
final class Algorithms: @unchecked Sendable {
    /// The shared set.
    static let shared = Algorithms()

    /// SHA-256, or nil if the provider could not supply it.
    let sha256: OpaquePointer?
    /// HKDF, or nil if the provider could not supply it.
    let hkdf: OpaquePointer?
    /// AES-GCM keyed by key length in bytes (16, 24, 32).
    let aesGCM: [Int: OpaquePointer]

    private init() {
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        hkdf = EVP_KDF_fetch(nil, "HKDF", nil)
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
        for cipher in aesGCM.values { EVP_CIPHER_free(cipher) }
    }
}
