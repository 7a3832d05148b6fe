/// What is wrong with the contents of an identity file.
public enum IdentityFileProblem: Error, Equatable, Sendable {
    /// The file is not exactly 101 bytes long.
    case wrongLength(Int)
    /// The file does not start with "MNID".
    case badMagic
    /// The version byte is not 1.
    case unsupportedVersion(UInt8)
    /// The checksum does not match: the file was damaged.
    case checksumMismatch
    /// A stored scalar is not a valid P-256 private key.
    case invalidKey(CryptoError)
}
