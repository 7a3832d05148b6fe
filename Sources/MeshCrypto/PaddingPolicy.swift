/// How a sender pads plaintext before sealing. Receivers always strip padding, whatever the policy.
public enum PaddingPolicy: Sendable, Equatable {
    /// Pad up to the next size bucket (32, 64, …, 4096, then multiples of 4096): hides lengths.
    case buckets
    /// Add only the one-byte 0x80 marker: no length hiding.
    case minimal
}
