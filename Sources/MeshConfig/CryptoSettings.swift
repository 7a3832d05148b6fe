/// `[crypto]` settings.
public struct CryptoSettings: Equatable, Sendable {
    /// Pads sealed payloads to hide their length.
    public var padding = true
    /// Creates the defaults.
    public init() {}
}
