import Glibc

/// What `meshnoded` was asked to do on its command line.
public struct DaemonInvocation: Equatable, Sendable {
    /// The requested action.
    public enum Action: Equatable, Sendable {
        /// Run the daemon.
        case run
        /// Load and validate the configuration, print "configuration OK", exit.
        case checkConfig
        /// Print the effective configuration as meshnoded.conf text, exit.
        case printConfig
        /// Print the usage text, exit.
        case help
        /// Print the version, exit.
        case version
    }

    /// The requested action.
    public var action: Action = .run
    /// The configuration file to read.
    public var configPath = ConfigLoader.defaultPath
    /// True when `--config` named the file, so it must exist.
    public var configPathGiven = false
    /// Settings given as flags, in order; they override the file.
    public var overrides: [ConfigOverride] = []

    /// Creates an invocation with the defaults.
    public init() {}

    /// The configuration file this invocation reads: the one `--config` named, or the default
    /// path when a file is there; nil when it runs on defaults and flags only.
    public var configFileRead: String? {
        configPathGiven || access(configPath, F_OK) == 0 ? configPath : nil
    }

    /// Loads the file (the default path may be missing), applies the flags, validates.
    public func loadConfig() throws(ConfigError) -> DaemonSettings {
        try ConfigLoader.load(path: configPath, mayBeMissing: !configPathGiven, overrides: overrides)
    }
}
