import COpenSSL

/// The system CSPRNG through OpenSSL's `RAND_bytes` (CryptoKit uses the system RNG likewise).
public enum SecureRandom {
    /// The most bytes one call may ask for.
    public static let maxByteCount = 1 << 20

    /// Returns `count` cryptographically secure random bytes.
    public static func bytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0, count <= maxByteCount else {
            throw .tooLarge(field: "random byte count", size: count, limit: maxByteCount)
        }
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        try OpenSSL.check(RAND_bytes(&bytes, Int32(count)), "RAND_bytes")
        return bytes
    }
}
