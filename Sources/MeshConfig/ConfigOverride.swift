/// One setting from the command line, already matched to its option.
public struct ConfigOverride: Equatable, Sendable {
    /// The flag as typed, such as `--udp-port`; used as the error location.
    public var flag: String
    /// The section the option lives in.
    public var section: String
    /// The key within the section.
    public var key: String
    /// The value as typed.
    public var value: String

    /// Creates an override.
    public init(flag: String, section: String, key: String, value: String) {
        self.flag = flag
        self.section = section
        self.key = key
        self.value = value
    }
}
