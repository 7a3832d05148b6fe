import COpenSSL

/// Conversions between the raw `r ‖ s` form (CryptoKit `rawRepresentation`, IEEE P1363) and
/// DER (`derRepresentation`), using OpenSSL's `ECDSA_SIG` encoder/decoder.
enum ECDSASignature {
    /// The raw signature length: r and s, 32 bytes each, big-endian.
    static let rawByteCount = 64

    /// Re-encodes a DER signature as 64 raw bytes.
    static func raw(fromDER der: [UInt8]) throws(CryptoError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            OpenSSL.clearErrors()
            throw .malformedSignature
        }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var raw = [UInt8](repeating: 0, count: rawByteCount)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            (BN_bn2binpad(r, buffer.baseAddress!, 32), BN_bn2binpad(s, buffer.baseAddress! + 32, 32))
        }
        guard written == (32, 32) else {
            OpenSSL.clearErrors()
            throw .malformedSignature
        }
        return raw
    }

    /// Encodes 64 raw bytes as a DER ECDSA-Sig-Value.
    static func der(fromRaw raw: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard raw.count == rawByteCount else { throw .malformedSignature }
        let signature = try OpenSSL.nonNull(ECDSA_SIG_new(), "ECDSA_SIG_new")
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(raw, 32, nil)
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw OpenSSL.failure("ECDSA_SIG_set0")
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { throw OpenSSL.failure("i2d_ECDSA_SIG(length)") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        guard written == length else { throw OpenSSL.failure("i2d_ECDSA_SIG") }
        return der
    }

    /// Verifies a DER signature over SHA-256(message). OpenSSL rejects non-DER (BER) encodings,
    /// trailing bytes, and r or s outside 1...n-1.
    static func verifyDER(_ der: [UInt8], message: [UInt8], key: P256PublicKey) -> Bool {
        guard !der.isEmpty, der.count <= 256, let digest = try? SHA256Digest.hash(message) else {
            OpenSSL.clearErrors()
            return false
        }
        let valid = key.key.verify(der: der, digest: digest)
        if !valid { OpenSSL.clearErrors() }
        return valid
    }
}

extension P256PublicKey {
    /// Verifies a raw 64-byte `r ‖ s` ECDSA P-256/SHA-256 signature
    /// (CryptoKit `isValidSignature(_:for:)` with `ECDSASignature(rawRepresentation:)`).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = try? ECDSASignature.der(fromRaw: signature) else {
            OpenSSL.clearErrors()
            return false
        }
        return ECDSASignature.verifyDER(der, message: message, key: self)
    }

    /// Verifies a DER-encoded ECDSA P-256/SHA-256 signature (CryptoKit `derRepresentation`).
    public func isValidDERSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        ECDSASignature.verifyDER(signature, message: message, key: self)
    }
}
