/// Flag bits of the envelope's flags byte.
public struct EnvelopeFlags: OptionSet, Sendable {
    /// The raw flags byte.
    public let rawValue: UInt8
    /// Creates flags from the raw byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A 16-byte destination node ID follows the origin.
    public static let hasDestination = EnvelopeFlags(rawValue: 0x01)
    /// The payload is an end-to-end sealed box.
    public static let innerSealed = EnvelopeFlags(rawValue: 0x02)
    /// A 64-byte origin signature ends the envelope.
    public static let signed = EnvelopeFlags(rawValue: 0x04)
    /// Every bit this version defines.
    public static let known: EnvelopeFlags = [.hasDestination, .innerSealed, .signed]
}
