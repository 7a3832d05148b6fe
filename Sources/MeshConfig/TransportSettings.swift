/// `[transport]` settings.
public struct TransportSettings: Equatable, Sendable {
    /// The transport in use.
    public var kind = TransportKind.bluez
    /// Creates the defaults.
    public init() {}
}
