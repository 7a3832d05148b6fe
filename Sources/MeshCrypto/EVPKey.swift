import COpenSSL
import Synchronization

/// Owns one `EVP_PKEY` and frees it when the last reference goes.
///
/// `@unchecked Sendable`: the key is never modified after it is built, and OpenSSL 3 documents
/// `EVP_PKEY` objects as safe for concurrent read-only use from several threads (reference
/// counts are atomic). Operations make their own `EVP_PKEY_CTX`/`EVP_MD_CTX`, except ECDSA
/// verification, whose context is made once per key and used under a lock.
final class EVPKey: @unchecked Sendable {
    /// The owned key.
    let pointer: OpaquePointer
    /// An `EVP_PKEY_CTX` initialised for verification with this key, made on first use: setting
    /// one up per signature (fetching the algorithm by name) cost a tenth of a verification.
    private let verifier = Mutex<OpaquePointer?>(nil)

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit {
        verifier.withLock { context in
            if let context { EVP_PKEY_CTX_free(context) }
        }
        EVP_PKEY_free(pointer)
    }

    /// True when `der` is a valid DER ECDSA signature by this key over `digest` (`EVP_PKEY_verify`,
    /// the operation `openssl speed ecdsa` times). Leaves OpenSSL's error queue to the caller.
    func verify(der: [UInt8], digest: [UInt8]) -> Bool {
        verifier.withLock { slot -> Bool in
            if slot == nil {
                guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { return false }
                guard EVP_PKEY_verify_init(context) == 1 else {
                    EVP_PKEY_CTX_free(context)
                    return false
                }
                slot = context
            }
            guard let context = slot else { return false }
            return EVP_PKEY_verify(context, der, der.count, digest, digest.count) == 1
        }
    }
}
