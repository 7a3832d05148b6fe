import COpenSSL

/// A P-256 private key held by OpenSSL, shared by the key-agreement and signing key types.
struct P256PrivateKey: Sendable {
    /// The length of a raw private scalar.
    static let scalarByteCount = 32

    let key: EVPKey
    let publicKey: P256PublicKey

    /// Generates a new key pair from the system CSPRNG.
    static func generate() throws(CryptoError) -> P256PrivateKey {
        let context = try OpenSSL.nonNull(EVP_PKEY_CTX_new_from_name(nil, "EC", nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSL.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        try OpenSSL.check(EVP_PKEY_CTX_set_group_name(context, "P-256"), "EVP_PKEY_CTX_set_group_name")
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw OpenSSL.failure("EVP_PKEY_generate")
        }
        return try P256PrivateKey(owner: EVPKey(taking: generated))
    }

    /// Imports a 32-byte big-endian scalar d (1 ≤ d < n); the public point d·G is computed
    /// by OpenSSL's SEC1 decoder, then the pair is checked with `EVP_PKEY_check`.
    init(rawRepresentation scalar: [UInt8]) throws(CryptoError) {
        guard scalar.count == Self.scalarByteCount else {
            throw .invalidLength(field: "P-256 private scalar", expected: Self.scalarByteCount, actual: scalar.count)
        }
        // RFC 5915 ECPrivateKey { version 1, privateKey OCTET STRING (32), parameters [0] prime256v1 }.
        let sec1: [UInt8] = [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20] + scalar
            + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        let decoded: OpaquePointer? = sec1.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PrivateKey(EVP_PKEY_EC, nil, &cursor, buffer.count)
        }
        guard let decoded else {
            OpenSSL.clearErrors()
            throw .invalidPrivateKey
        }
        let owner = EVPKey(taking: decoded)
        let context = try OpenSSL.nonNull(EVP_PKEY_CTX_new_from_pkey(nil, owner.pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_check(context) == 1 else {
            OpenSSL.clearErrors()
            throw .invalidPrivateKey
        }
        try self.init(owner: owner)
    }

    private init(owner: EVPKey) throws(CryptoError) {
        key = owner
        publicKey = try P256PublicKey(validated: owner)
    }

    /// The 32-byte big-endian private scalar.
    func rawRepresentation() throws(CryptoError) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, OSSL_PKEY_PARAM_PRIV_KEY, &number) == 1, let number else {
            throw OpenSSL.failure("EVP_PKEY_get_bn_param(priv)")
        }
        defer { BN_clear_free(number) }
        var scalar = [UInt8](repeating: 0, count: Self.scalarByteCount)
        guard BN_bn2binpad(number, &scalar, Int32(Self.scalarByteCount)) == Int32(Self.scalarByteCount) else {
            throw OpenSSL.failure("BN_bn2binpad")
        }
        return scalar
    }

    /// ECDH: the 32-byte x-coordinate of d·Q, on the key's kept derivation context.
    ///
    /// The peer point is not checked again here: every `P256PublicKey` was checked when it was
    /// made (on the curve, not infinity; see `P256PublicKey.init(point:)`) or came from a key
    /// OpenSSL generated. Asking `EVP_PKEY_derive_set_peer_ex` to validate it again cost as much
    /// as the derivation itself on every call.
    func sharedSecret(with peer: P256PublicKey) throws(CryptoError) -> [UInt8] {
        guard let secret = try key.derive(peer: peer.key, length: Self.scalarByteCount) else {
            OpenSSL.clearErrors()
            throw .invalidPublicKey
        }
        guard secret.count == Self.scalarByteCount else {
            throw .invalidLength(field: "ECDH shared secret", expected: Self.scalarByteCount, actual: secret.count)
        }
        return secret
    }

    /// ECDSA over SHA-256(message); returns the DER ECDSA-Sig-Value.
    func signDER(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let context = try OpenSSL.nonNull(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try OpenSSL.check(
            EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, key.pointer, nil), "EVP_DigestSignInit_ex")
        var length = 0
        try OpenSSL.check(EVP_DigestSign(context, nil, &length, message, message.count), "EVP_DigestSign(length)")
        guard length > 0, length <= 80 else {
            throw .invalidLength(field: "ECDSA DER signature", expected: 72, actual: length)
        }
        var signature = [UInt8](repeating: 0, count: length)
        try OpenSSL.check(EVP_DigestSign(context, &signature, &length, message, message.count), "EVP_DigestSign")
        return Array(signature.prefix(length))
    }
}
