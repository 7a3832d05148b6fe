import COpenSSL
import Synchronization

/// Owns one `EVP_PKEY` and frees it when the last reference goes.
///
/// `@unchecked Sendable`: the key is never modified after it is built, and OpenSSL 3 documents
/// `EVP_PKEY` objects as safe for concurrent read-only use from several threads (reference
/// counts are atomic). Operations make their own `EVP_PKEY_CTX`/`EVP_MD_CTX`, except ECDSA
/// verification and ECDH, whose contexts are made once per key and used under a lock.
final class EVPKey: @unchecked Sendable {
    /// The owned key.
    let pointer: OpaquePointer
    /// An `EVP_PKEY_CTX` initialised for verification with this key, made on first use: setting
    /// one up per signature (fetching the algorithm by name) cost a tenth of a verification.
    private let verifier = Mutex<OpaquePointer?>(nil)
    /// An `EVP_PKEY_CTX` initialised for ECDH with this (private) key, made on first use; each
    /// derivation only sets its peer. A context per derivation (fetching the key exchange by
    /// name) cost 4 % of one; keys that derive many times gain (the identity key opening direct
    /// messages), a link's ephemeral, used once, still pays for one. It holds the last peer's
    /// public key until the next derivation.
    private let deriver = Mutex<OpaquePointer?>(nil)

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit {
        verifier.withLock { context in
            if let context { EVP_PKEY_CTX_free(context) }
        }
        deriver.withLock { context in
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

    /// ECDH with this private key and `peer` (`EVP_PKEY_derive`, the operation `openssl speed
    /// ecdh` times), after `EVP_PKEY_derive_set_peer_ex` without validation (the caller's key
    /// type has validated `peer`). Returns up to `length` bytes of secret, or nil if the peer was
    /// refused (the error queue then holds why); throws if OpenSSL failed.
    func derive(peer: EVPKey, length: Int) throws(CryptoError) -> [UInt8]? {
        try deriver.withLock { slot throws(CryptoError) -> [UInt8]? in
            if slot == nil {
                let context = try OpenSSL.nonNull(EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
                guard EVP_PKEY_derive_init(context) == 1 else {
                    EVP_PKEY_CTX_free(context)
                    throw OpenSSL.failure("EVP_PKEY_derive_init")
                }
                slot = context
            }
            guard let context = slot else { throw OpenSSL.failure("EVP_PKEY_derive_init") }
            guard EVP_PKEY_derive_set_peer_ex(context, peer.pointer, 0) == 1 else { return nil }
            var secret = [UInt8](repeating: 0, count: length)
            var written = length
            try OpenSSL.check(EVP_PKEY_derive(context, &secret, &written), "EVP_PKEY_derive")
            if written < length { secret.removeLast(length - written) }
            return secret
        }
    }
}
