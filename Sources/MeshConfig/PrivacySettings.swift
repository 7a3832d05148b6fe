/// `[privacy]` settings.
public struct PrivacySettings: Equatable, Sendable {
    /// The mean time between cover packets on each opaque link (PROTOCOL.md D14); zero: none.
    public var coverInterval: Duration = .zero
    /// The shortest mean `cover_interval` takes besides 0.
    public static let coverFloor: Duration = .seconds(1)
    /// Creates the defaults.
    public init() {}
}
