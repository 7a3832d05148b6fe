/// Counts of crypto outcomes, for the node's statistics. Callers may also `record` any error.
public struct CryptoCounters: Sendable, Equatable {
    /// Packets or boxes sealed.
    public var sealed: UInt64 = 0
    /// Packets or boxes opened successfully.
    public var opened: UInt64 = 0
    /// Opened with the previous link key during the grace period after a rekey.
    public var openedWithPreviousKey: UInt64 = 0
    /// AES-GCM authentication failures (tampered, forged or mis-keyed input).
    public var authenticationFailures: UInt64 = 0
    /// Link packets dropped as replays or as older than the replay window.
    public var replaysDropped: UInt64 = 0
    /// Malformed input: bad lengths, bad padding, bad encodings.
    public var malformed: UInt64 = 0
    /// Signatures that did not verify, or were missing.
    public var badSignatures: UInt64 = 0
    /// Key or identity mismatches (ID mismatch, origin mismatch, reflected key exchange).
    public var identityMismatches: UInt64 = 0
    /// Any other failure (OpenSSL internal errors, exhausted counters).
    public var otherFailures: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}

    /// The total number of failures of every kind.
    public var totalFailures: UInt64 {
        authenticationFailures + replaysDropped + malformed + badSignatures + identityMismatches + otherFailures
    }

    /// Adds one to the counter that matches `error`.
    public mutating func record(_ error: CryptoError) {
        switch error {
        case .authenticationFailed: authenticationFailures += 1
        case .replay: replaysDropped += 1
        case .badSignature, .missingSignature, .malformedSignature: badSignatures += 1
        case .idMismatch, .originMismatch, .reflectedKeyExchange, .notAddressedToUs, .wrongKind: identityMismatches += 1
        case .invalidLength, .invalidPublicKey, .invalidPrivateKey, .tooLarge, .truncated, .badPadding,
            .unsupportedVersion, .wire, .invalidOutputLength:
            malformed += 1
        case .openSSL, .counterExhausted, .unexpectedIdentityProof: otherFailures += 1
        }
    }
}
