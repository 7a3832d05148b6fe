import COpenSSL

/// AES-256-GCM with a 12-byte nonce and a 16-byte tag, in CryptoKit's combined layout
/// `nonce ‖ ciphertext ‖ tag` (`AES.GCM.seal(_:using:authenticating:)` / `SealedBox.combined`).
public enum AESGCM {
    /// The key length in bytes (AES-256).
    public static let keyByteCount = 32
    /// The nonce length in bytes.
    public static let nonceByteCount = 12
    /// The authentication tag length in bytes.
    public static let tagByteCount = 16
    /// The longest plaintext or AAD accepted.
    public static let maxInputLength = 1 << 24

    /// Seals `plaintext` under `key` with a fresh random nonce; `aad` is authenticated, not sent.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], aad: [UInt8]) throws(CryptoError) -> [UInt8] {
        try seal(plaintext, key: key, nonce: SecureRandom.bytes(nonceByteCount), aad: aad)
    }

    /// Opens a combined box; throws `authenticationFailed` if anything was altered.
    public static func open(_ combined: [UInt8], key: [UInt8], aad: [UInt8]) throws(CryptoError) -> [UInt8] {
        try checkKey(key)
        let minimum = nonceByteCount + tagByteCount
        guard combined.count >= minimum else {
            throw .truncated(field: "AES-GCM box", size: combined.count, minimum: minimum)
        }
        let nonce = Array(combined[..<nonceByteCount])
        let ciphertext = Array(combined[nonceByteCount..<(combined.count - tagByteCount)])
        let tag = Array(combined[(combined.count - tagByteCount)...])
        return try decrypt(key: key, nonce: nonce, aad: aad, ciphertext: ciphertext, tag: tag)
    }

    /// Seals with a caller-chosen nonce. Internal: only fixed test vectors may pick the nonce.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(CryptoError) -> [UInt8] {
        try checkKey(key)
        let (ciphertext, tag) = try encrypt(key: key, nonce: nonce, aad: aad, plaintext: plaintext)
        return nonce + ciphertext + tag
    }

    /// Seals `plaintext` under a 32-byte key and appends the combined box `nonce ‖ ciphertext ‖
    /// tag` to `output`, written in place. On failure `output` is left as it was.
    static func seal(
        _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8], appendingTo output: inout [UInt8]
    ) throws(CryptoError) {
        try checkKey(key)
        let context = try makeContext(key: key, nonce: nonce, aad: aad, plaintext: plaintext, encrypt: true)
        defer { EVP_CIPHER_CTX_free(context) }
        try encrypt(plaintext, nonce: nonce, aad: aad, context: context, appendingTo: &output)
    }

    /// The size checks of a seal or open whose nonce is known to be 12 bytes: the text and the
    /// AAD within `maxInputLength`.
    static func checkSizes(_ size: Int, aad: Int) throws(CryptoError) {
        guard size <= maxInputLength else {
            throw .tooLarge(field: "AES-GCM input", size: size, limit: maxInputLength)
        }
        guard aad <= maxInputLength else {
            throw .tooLarge(field: "AES-GCM AAD", size: aad, limit: maxInputLength)
        }
    }

    /// Encrypts with a context already keyed and given `nonce`, appending `nonce ‖ ciphertext ‖
    /// tag` to `output` in place; on failure `output` is left as it was.
    static func encrypt(
        _ plaintext: [UInt8], nonce: [UInt8], aad: [UInt8], context: OpaquePointer, appendingTo output: inout [UInt8]
    ) throws(CryptoError) {
        try feedAAD(aad, context: context)
        let start = output.count
        output.append(contentsOf: nonce)
        let body = output.count
        output.append(contentsOf: repeatElement(0, count: plaintext.count + tagByteCount))
        do throws(CryptoError) {
            try output.withMutableBufferPointer { (buffer) throws(CryptoError) in
                let base = buffer.baseAddress! + body
                var written: Int32 = 0
                if !plaintext.isEmpty {
                    try OpenSSL.check(
                        EVP_EncryptUpdate(context, base, &written, plaintext, Int32(plaintext.count)), "EVP_EncryptUpdate")
                }
                var finalWritten: Int32 = 0
                try OpenSSL.check(EVP_EncryptFinal_ex(context, base + Int(written), &finalWritten), "EVP_EncryptFinal_ex")
                let total = Int(written) + Int(finalWritten)
                guard total == plaintext.count else {
                    throw .invalidLength(field: "AES-GCM ciphertext", expected: plaintext.count, actual: total)
                }
                try OpenSSL.check(
                    EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), base + total),
                    "EVP_CIPHER_CTX_ctrl(GET_TAG)")
            }
        } catch {
            output.removeSubrange(start...)
            throw error
        }
    }

    /// Decrypts `input[body]` (the ciphertext; the 16-byte tag follows it) with a context
    /// already keyed and given its nonce; returns the plaintext only if the tag verifies.
    /// `input` is only read: OpenSSL copies the tag it is handed.
    static func decrypt(
        _ input: UnsafeBufferPointer<UInt8>, body: Range<Int>, aad: UnsafeBufferPointer<UInt8>, context: OpaquePointer
    ) throws(CryptoError) -> [UInt8] {
        precondition(body.upperBound + tagByteCount <= input.count, "the tag follows the ciphertext")
        let tag = UnsafeMutableRawPointer(mutating: input.baseAddress! + body.upperBound)
        try OpenSSL.check(
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), tag), "EVP_CIPHER_CTX_ctrl(SET_TAG)")
        try feedAAD(aad, context: context)
        var plaintext = [UInt8](repeating: 0, count: body.count)
        var written: Int32 = 0
        let verified = try plaintext.withMutableBufferPointer { (output) throws(CryptoError) -> Int32 in
            if !body.isEmpty {
                try OpenSSL.check(
                    EVP_DecryptUpdate(context, output.baseAddress!, &written, input.baseAddress! + body.lowerBound, Int32(body.count)),
                    "EVP_DecryptUpdate")
            }
            var finalWritten: Int32 = 0
            // Final writes nothing for GCM; a spare pointer past the plaintext is never written.
            var spare: UInt8 = 0
            return EVP_DecryptFinal_ex(context, &spare, &finalWritten)
        }
        guard verified == 1 else {
            OpenSSL.clearErrors()
            throw .authenticationFailed
        }
        guard Int(written) == body.count else {
            throw .invalidLength(field: "AES-GCM plaintext", expected: body.count, actual: Int(written))
        }
        return plaintext
    }

    private static func checkKey(_ key: [UInt8]) throws(CryptoError) {
        guard key.count == keyByteCount else {
            throw .invalidLength(field: "AES-256 key", expected: keyByteCount, actual: key.count)
        }
    }

    /// Detached encryption for 16/24/32-byte keys (the Wycheproof tests use all three).
    static func encrypt(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) throws(CryptoError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        let context = try makeContext(key: key, nonce: nonce, aad: aad, plaintext: plaintext, encrypt: true)
        defer { EVP_CIPHER_CTX_free(context) }
        try feedAAD(aad, context: context)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        if !plaintext.isEmpty {
            try OpenSSL.check(
                EVP_EncryptUpdate(context, &ciphertext, &written, plaintext, Int32(plaintext.count)),
                "EVP_EncryptUpdate")
        }
        var finalWritten: Int32 = 0
        try ciphertext.withMutableBufferPointer { (buffer) throws(CryptoError) in
            try OpenSSL.check(
                EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &finalWritten),
                "EVP_EncryptFinal_ex")
        }
        let total = Int(written) + Int(finalWritten)
        guard total == plaintext.count else {
            throw .invalidLength(field: "AES-GCM ciphertext", expected: plaintext.count, actual: total)
        }
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        try OpenSSL.check(
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), &tag),
            "EVP_CIPHER_CTX_ctrl(GET_TAG)")
        return (Array(ciphertext.prefix(total)), tag)
    }

    /// Detached decryption for 16/24/32-byte keys; returns plaintext only if the tag verifies.
    static func decrypt(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], ciphertext: [UInt8], tag: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard tag.count == tagByteCount else {
            throw .invalidLength(field: "AES-GCM tag", expected: tagByteCount, actual: tag.count)
        }
        let context = try makeContext(key: key, nonce: nonce, aad: aad, plaintext: ciphertext, encrypt: false)
        defer { EVP_CIPHER_CTX_free(context) }
        try feedAAD(aad, context: context)
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written: Int32 = 0
        if !ciphertext.isEmpty {
            try OpenSSL.check(
                EVP_DecryptUpdate(context, &plaintext, &written, ciphertext, Int32(ciphertext.count)),
                "EVP_DecryptUpdate")
        }
        var expectedTag = tag
        try OpenSSL.check(
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), &expectedTag),
            "EVP_CIPHER_CTX_ctrl(SET_TAG)")
        var finalWritten: Int32 = 0
        let verified = plaintext.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(written), &finalWritten)
        }
        guard verified == 1 else {
            OpenSSL.clearErrors()
            throw .authenticationFailed
        }
        return Array(plaintext.prefix(Int(written) + Int(finalWritten)))
    }

    private static func makeContext(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8], encrypt: Bool
    ) throws(CryptoError) -> OpaquePointer {
        guard let cipher = Algorithms.shared.aesGCM[key.count] else {
            throw .invalidLength(field: "AES key", expected: keyByteCount, actual: key.count)
        }
        guard nonce.count == nonceByteCount else {
            throw .invalidLength(field: "AES-GCM nonce", expected: nonceByteCount, actual: nonce.count)
        }
        guard plaintext.count <= maxInputLength else {
            throw .tooLarge(field: "AES-GCM input", size: plaintext.count, limit: maxInputLength)
        }
        guard aad.count <= maxInputLength else {
            throw .tooLarge(field: "AES-GCM AAD", size: aad.count, limit: maxInputLength)
        }
        let context = try OpenSSL.nonNull(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        let result = encrypt
            ? EVP_EncryptInit_ex2(context, cipher, key, nonce, nil)
            : EVP_DecryptInit_ex2(context, cipher, key, nonce, nil)
        guard result == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw OpenSSL.failure(encrypt ? "EVP_EncryptInit_ex2" : "EVP_DecryptInit_ex2")
        }
        return context
    }

    /// Encrypts `count` bytes at `body` where they lie and writes the 16-byte tag after them, with
    /// a context already keyed and given its nonce.
    static func encrypt(
        inPlace body: UnsafeMutablePointer<UInt8>, count: Int, aad: UnsafeBufferPointer<UInt8>, context: OpaquePointer
    ) throws(CryptoError) {
        try feedAAD(aad, context: context)
        var written: Int32 = 0
        if count > 0 {
            try OpenSSL.check(EVP_EncryptUpdate(context, body, &written, body, Int32(count)), "EVP_EncryptUpdate")
        }
        var finalWritten: Int32 = 0
        try OpenSSL.check(EVP_EncryptFinal_ex(context, body + Int(written), &finalWritten), "EVP_EncryptFinal_ex")
        let total = Int(written) + Int(finalWritten)
        guard total == count else {
            throw .invalidLength(field: "AES-GCM ciphertext", expected: count, actual: total)
        }
        try OpenSSL.check(
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), body + total), "EVP_CIPHER_CTX_ctrl(GET_TAG)")
    }

    private static func feedAAD(_ aad: UnsafeBufferPointer<UInt8>, context: OpaquePointer) throws(CryptoError) {
        guard let base = aad.baseAddress, !aad.isEmpty else { return }
        var ignored: Int32 = 0
        try OpenSSL.check(EVP_CipherUpdate(context, nil, &ignored, base, Int32(aad.count)), "EVP_CipherUpdate(AAD)")
    }

    private static func feedAAD(_ aad: [UInt8], context: OpaquePointer) throws(CryptoError) {
        guard !aad.isEmpty else { return }
        var ignored: Int32 = 0
        try OpenSSL.check(EVP_CipherUpdate(context, nil, &ignored, aad, Int32(aad.count)), "EVP_CipherUpdate(AAD)")
    }
}
