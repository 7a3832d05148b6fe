import Glibc

/// How the daemon runs, as `status` reports it and `relayctl doctor` judges it: the file, the
/// directories, the user, and whether systemd started it.
public struct DaemonContext: Equatable, Sendable {
    /// The configuration file read; nil when none was (defaults and flags only).
    public var configFile: String?
    /// The state directory.
    public var stateDirectory: String
    /// The control socket.
    public var controlSocket: String
    /// The user name (or numeric ID) the process runs as.
    public var user: String
    /// The process ID.
    public var pid: Int
    /// True when a systemd unit started the process (`INVOCATION_ID` is set).
    public var systemd: Bool

    /// Creates a context.
    public init(configFile: String?, stateDirectory: String, controlSocket: String, user: String, pid: Int, systemd: Bool) {
        self.configFile = configFile
        self.stateDirectory = stateDirectory
        self.controlSocket = controlSocket
        self.user = user
        self.pid = pid
        self.systemd = systemd
    }

    /// This process's context, for the given file and paths.
    public static func current(configFile: String?, stateDirectory: String, controlSocket: String) -> DaemonContext {
        DaemonContext(configFile: configFile, stateDirectory: stateDirectory, controlSocket: controlSocket,
                      user: userName(geteuid()), pid: Int(getpid()), systemd: getenv("INVOCATION_ID") != nil)
    }

    /// The name of user `uid`, or the number when it has none.
    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name else {
            return String(uid)
        }
        return String(cString: name)
    }
}
