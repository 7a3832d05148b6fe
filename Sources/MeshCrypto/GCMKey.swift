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
    private let context = Mutex<OpaquePointer?>(nil)

    /// A 32-byte key that will only seal (`encrypts`) or only open.
    init(_ key: [UInt8], encrypts: Bool) {
        self.key = key
        self.encrypts = encrypts
    }

    deinit {
        context.withLock { context in
            if let context { EVP_CIPHER_CTX_free(context) }
        }
    }

    /// `AESGCM.seal(_:key:nonce:aad:appendingTo:)` with this key's context.
    func seal(_ plaintext: [UInt8], nonce: [UInt8], aad: [UInt8], appendingTo output: inout [UInt8]) throws(CryptoError) {
        precondition(encrypts, "a GCMKey seals only if made to")
        try AESGCM.checkInputs(nonce: nonce, plaintext: plaintext, aad: aad)
        try context.withLock { (slot) throws(CryptoError) in
            let context = try prepared(&slot, nonce: nonce)
            try AESGCM.encrypt(plaintext, nonce: nonce, aad: aad, context: context, appendingTo: &output)
        }
    }

    /// Opens the combined box `nonce ‖ ciphertext ‖ tag` at `packet[start...]`; throws
    /// `authenticationFailed` if anything was altered.
    func open(_ packet: [UInt8], from start: Int, aad: [UInt8]) throws(CryptoError) -> [UInt8] {
        precondition(!encrypts, "a GCMKey opens only if made to")
        let minimum = AESGCM.nonceByteCount + AESGCM.tagByteCount
        guard packet.count - start >= minimum else {
            throw .truncated(field: "AES-GCM box", size: packet.count - start, minimum: minimum)
        }
        let nonce = Array(packet[start..<(start + AESGCM.nonceByteCount)])
        let body = (start + AESGCM.nonceByteCount)..<(packet.count - AESGCM.tagByteCount)
        try AESGCM.checkInputs(nonce: nonce, plaintext: [], aad: aad, length: body.count)
        return try context.withLock { (slot) throws(CryptoError) -> [UInt8] in
            let context = try prepared(&slot, nonce: nonce)
            return try AESGCM.decrypt(packet, body: body, aad: aad, context: context)
        }
    }

    /// The context, made and keyed on first use, with `nonce` set.
    private func prepared(_ slot: inout OpaquePointer?, nonce: [UInt8]) throws(CryptoError) -> OpaquePointer {
        if let context = slot {
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
        slot = context
        return context
    }
}
