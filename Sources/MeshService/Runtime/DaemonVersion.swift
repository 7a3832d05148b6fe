import ControlProtocol

/// The daemon's version, for `--version` and the `status` report.
public enum DaemonVersion {
    /// The version string.
    public static let current = ProductVersion.current
}
