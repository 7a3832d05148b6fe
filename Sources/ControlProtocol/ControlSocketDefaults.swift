/// Where meshnoded's control socket is when the configuration does not say: the one place the
/// default path is written in code (docs/CONTROL.md and the man pages show its value; a test
/// checks them).
public enum ControlSocketDefaults {
    /// The runtime directory the socket lives in (systemd `RuntimeDirectory=meshnoded`).
    public static let directory = "/run/meshnoded"
    /// The socket's file name inside the runtime directory.
    public static let fileName = "control.sock"
    /// The default control socket path, `/run/meshnoded/control.sock`.
    public static let path = directory + "/" + fileName
}
