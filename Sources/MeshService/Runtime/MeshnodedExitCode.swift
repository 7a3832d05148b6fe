/// meshnoded's exit codes (sysexits.h values), listed in docs/OPERATIONS.md ("Exit codes").
public enum MeshnodedExitCode: Int32, Sendable, CaseIterable {
    /// Stopped by SIGTERM or SIGINT, or `--help`, `--version`, `--check-config` succeeded.
    case ok = 0
    /// The command line is wrong (EX_USAGE); not restarted.
    case usage = 64
    /// The identity file is damaged, not a regular file, unreadable or open to others (EX_DATAERR); not restarted.
    case identity = 65
    /// The control socket or the transport cannot be opened, e.g. in use (EX_UNAVAILABLE).
    case unavailable = 69
    /// An unexpected failure inside the node (EX_SOFTWARE).
    case software = 70
    /// The state directory or a new identity file cannot be created (EX_CANTCREAT).
    case cannotCreate = 73
    /// The configuration file or a flag's value is wrong (EX_CONFIG); not restarted.
    case config = 78
}
