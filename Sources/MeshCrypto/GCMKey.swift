import COpenSSL
import Synchronization

/// One AES-256-GCM key for one direction of a link, with its OpenSSL context made once: the key
/// schedule and the GHASH key are computed when the context is first used, and each seal or
/// open after that only sets a new nonce (as `openssl speed -aead` does). The context is made
/// on first use, so creating a key cannot fail.
///
/// A class behind a lock: copies of a `LinkSession` share it, and an `EVP_CIPHER_CTX` must not
/// be used by two threads at once.
final class GCMKey: Sendable {
    private let key: [UInt8]
    private let encrypts: Bool
    private let context = Mutex<Context?>(nil)

    /// The `EVP_CIPHER_CTX`, only ever used under the lock. Sendable so that the lock's closures
    /// may also use pointers into the caller's buffers (the packet, the AAD on the stack).
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// A 32-byte key that will only seal (`encrypts`) or only open.
    init(_ key: [UInt8], encrypts: Bool) {
        self.key = key
        self.encrypts = encrypts
    }

    deinit {
        context.withLock { context in
            if let context { EVP_CIPHER_CTX_free(context.pointer) }
        }
    }

    /// Seals `count` bytes at `body` where they lie and writes the 16-byte tag right after them;
    /// `nonce` points at the 12-byte nonce.
    func seal(
        inPlace body: UnsafeMutablePointer<UInt8>, count: Int, nonce: UnsafePointer<UInt8>, aad: UnsafeBufferPointer<UInt8>
    ) throws(CryptoError) {
        precondition(encrypts, "a GCMKey seals only if made to")
        try AESGCM.checkSizes(count, aad: aad.count)
        try context.withLock { (slot) throws(CryptoError) in
            let context = try prepared(&slot, nonce: nonce)
            try AESGCM.encrypt(inPlace: body, count: count, aad: aad, context: context)
        }
    }

    /// Opens the combined box `nonce ‖ ciphertext ‖ tag` at `packet[start...]`; throws
    /// `authenticationFailed` if anything was altered.
    func open(_ packet: [UInt8], from start: Int, aad: UnsafeBufferPointer<UInt8>) throws(CryptoError) -> [UInt8] {
        precondition(!encrypts, "a GCMKey opens only if made to")
        let minimum = AESGCM.nonceByteCount + AESGCM.tagByteCount
        guard packet.count - start >= minimum else {
            throw .truncated(field: "AES-GCM box", size: packet.count - start, minimum: minimum)
        }
        let body = (start + AESGCM.nonceByteCount)..<(packet.count - AESGCM.tagByteCount)
        try AESGCM.checkSizes(body.count, aad: aad.count)
        return try context.withLock { (slot) throws(CryptoError) -> [UInt8] in
            // The nonce and the tag are read where they lie in the packet, not copied out.
            try packet.withBufferPointer { (bytes) throws(CryptoError) -> [UInt8] in
                let context = try prepared(&slot, nonce: bytes.baseAddress! + start)
                return try AESGCM.decrypt(bytes, body: body, aad: aad, context: context)
            }
        }
    }

    /// The context, made and keyed on first use, with `nonce` set.
    private func prepared(_ slot: inout Context?, nonce: UnsafePointer<UInt8>) throws(CryptoError) -> OpaquePointer {
        if let context = slot?.pointer {
            let result = encrypts
                ? EVP_EncryptInit_ex2(context, nil, nil, nonce, nil) : EVP_DecryptInit_ex2(context, nil, nil, nonce, nil)
            try OpenSSL.check(result, encrypts ? "EVP_EncryptInit_ex2(IV)" : "EVP_DecryptInit_ex2(IV)")
            return context
        }
        guard key.count == AESGCM.keyByteCount, let cipher = Algorithms.shared.aesGCM[key.count] else {
            throw .invalidLength(field: "AES-256 key", expected: AESGCM.keyByteCount, actual: key.count)
        }
        let context = try OpenSSL.nonNull(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        let result = encrypts
            ? EVP_EncryptInit_ex2(context, cipher, key, nonce, nil) : EVP_DecryptInit_ex2(context, cipher, key, nonce, nil)
        guard result == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw OpenSSL.failure(encrypts ? "EVP_EncryptInit_ex2" : "EVP_DecryptInit_ex2")
        }
        slot = Context(pointer: context)
        return context
    }
}
