import COpenSSL

/// A validated P-256 public key (CryptoKit `P256.KeyAgreement.PublicKey` /
/// `P256.Signing.PublicKey`). Construction fails for any point that is not on the curve,
/// is the point at infinity, or is encoded with the wrong length or prefix.
public struct P256PublicKey: Sendable, Equatable, Hashable {
    /// The length of the X9.63 uncompressed encoding `04 ‖ x ‖ y`.
    public static let x963ByteCount = 65
    /// The length of the compressed encoding `02|03 ‖ x`.
    public static let compressedByteCount = 33

    let key: EVPKey
    /// The X9.63 uncompressed encoding (`x963Representation` in CryptoKit): the wire form.
    public let x963: [UInt8]

    /// Parses the 65-byte X9.63 uncompressed encoding.
    public init(x963 bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == Self.x963ByteCount, bytes.first == 0x04 else { throw .invalidPublicKey }
        try self.init(point: bytes)
    }

    /// Parses the 33-byte compressed encoding (`compressedRepresentation` in CryptoKit).
    public init(compressed bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == Self.compressedByteCount, bytes.first == 0x02 || bytes.first == 0x03 else {
            throw .invalidPublicKey
        }
        try self.init(point: bytes)
    }

    /// Parses a DER SubjectPublicKeyInfo (`derRepresentation` in CryptoKit); the key must name
    /// the curve P-256 by OID (explicit curve parameters are rejected).
    public init(derRepresentation der: [UInt8]) throws(CryptoError) {
        guard !der.isEmpty, der.count <= 4096 else { throw .invalidPublicKey }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let key = d2i_PUBKEY(nil, &cursor, buffer.count)
            guard let key, cursor == buffer.baseAddress! + buffer.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let parsed else {
            OpenSSL.clearErrors()
            throw .invalidPublicKey
        }
        let owner = EVPKey(taking: parsed)
        // Only the named curve: explicit curve parameters (even ones equal to P-256) are refused.
        var explicit: Int32 = 1
        guard EVP_PKEY_is_a(owner.pointer, "EC") == 1, Self.groupName(of: owner.pointer) == "prime256v1",
            EVP_PKEY_get_int_param(owner.pointer, OSSL_PKEY_PARAM_EC_DECODED_FROM_EXPLICIT_PARAMS, &explicit) == 1,
            explicit == 0
        else {
            OpenSSL.clearErrors()
            throw .invalidPublicKey
        }
        try self.init(x963: Self.exportPoint(owner.pointer))
    }

    /// Imports an encoded point (X9.63 uncompressed, or compressed) into a key that copies
    /// P-256's domain parameters from ``domain`` (building the group from its name for every key
    /// cost more than the point itself).
    ///
    /// The import is the public-key check. OpenSSL's point decoder (`EC_POINT_oct2point`, behind
    /// `EVP_PKEY_set1_encoded_public_key`) refuses a coordinate ≥ p, a compressed x with no square
    /// root, and an uncompressed point off the curve (`EC_POINT_set_affine_coordinates` checks the
    /// curve equation); the callers' length and prefix checks refuse the point at infinity. Those
    /// are the three tests of `EVP_PKEY_public_check_quick` (SP 800-56A 5.6.2.3.4), which running
    /// again cost 7 % of a derivation (it converts the point back to affine, a field inversion).
    /// The quick check is sufficient on P-256: the full check adds only n·Q = O, which every point
    /// on the curve but infinity satisfies because the cofactor is 1. `P256Tests.rejectsBadPoint`
    /// and the Wycheproof invalid-point vectors hold the import to this.
    ///
    /// An uncompressed point is kept as given (the import has shown it is the key's own
    /// encoding); a compressed one is exported once as `04 ‖ x ‖ y`.
    private init(point: [UInt8]) throws(CryptoError) {
        let fresh = try OpenSSL.nonNull(EVP_PKEY_new(), "EVP_PKEY_new")
        let owner = EVPKey(taking: fresh)
        guard EVP_PKEY_copy_parameters(owner.pointer, try Self.domain().pointer) == 1 else {
            throw OpenSSL.failure("EVP_PKEY_copy_parameters")
        }
        guard EVP_PKEY_set1_encoded_public_key(owner.pointer, point, point.count) == 1 else {
            OpenSSL.clearErrors()
            throw .invalidPublicKey
        }
        key = owner
        x963 = point.count == Self.x963ByteCount ? point : try Self.exportPoint(owner.pointer)
    }

    /// A key holding only P-256's domain parameters, made once: every imported point copies them.
    private static let domainParameters: Result<EVPKey, CryptoError> = {
        do throws(CryptoError) {
            let context = try OpenSSL.nonNull(EVP_PKEY_CTX_new_from_name(nil, "EC", nil), "EVP_PKEY_CTX_new_from_name")
            defer { EVP_PKEY_CTX_free(context) }
            try OpenSSL.check(EVP_PKEY_fromdata_init(context), "EVP_PKEY_fromdata_init")
            var params = ParamList()
            params.addUTF8(OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1")
            var imported: OpaquePointer?
            let result = params.withParams {
                EVP_PKEY_fromdata(context, &imported, Int32(OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS), $0)
            }
            guard result == 1, let imported else {
                EVP_PKEY_free(imported)
                throw OpenSSL.failure("EVP_PKEY_fromdata(P-256 parameters)")
            }
            return .success(EVPKey(taking: imported))
        } catch {
            return .failure(error)
        }
    }()

    private static func domain() throws(CryptoError) -> EVPKey { try domainParameters.get() }

    /// Wraps a key OpenSSL produced (for example the public half of a generated key).
    init(validated owner: EVPKey) throws(CryptoError) {
        key = owner
        x963 = try Self.exportPoint(owner.pointer)
    }

    /// The 33-byte compressed encoding: `02` (even y) or `03` (odd y), then x.
    public var compressed: [UInt8] {
        [0x02 | (x963[64] & 1)] + x963[1...32]
    }

    /// Two keys are equal when their points are equal.
    public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool { lhs.x963 == rhs.x963 }

    /// Hashes the point.
    public func hash(into hasher: inout Hasher) { hasher.combine(x963) }

    /// The key's point as `04 ‖ x ‖ y`, in one call (reading x and y as two numbers converted
    /// the point to affine twice). Sets the key's point format to uncompressed first (a key
    /// imported from a compressed point remembers that form), so only for a key not yet shared.
    static func exportPoint(_ key: OpaquePointer) throws(CryptoError) -> [UInt8] {
        try OpenSSL.check(
            EVP_PKEY_set_utf8_string_param(key, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, "uncompressed"),
            "EVP_PKEY_set_utf8_string_param(point-format)")
        var output = [UInt8](repeating: 0, count: Self.x963ByteCount)
        var length = 0
        try OpenSSL.check(
            EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, &output, output.count, &length),
            "EVP_PKEY_get_octet_string_param(pub)")
        guard length == Self.x963ByteCount, output[0] == 0x04 else {
            throw .invalidLength(field: "P-256 X9.63 point", expected: Self.x963ByteCount, actual: length)
        }
        return output
    }

    private static func groupName(of key: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, &buffer, buffer.count, &length) == 1
        else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
