/// relayctl's exit codes (sysexits.h values), listed in docs/CONTROL.md.
public enum RelayctlExitCode: Int32, Sendable, CaseIterable {
    /// The command succeeded.
    case ok = 0
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// meshnoded refused the request, for example an unknown node (EX_DATAERR).
    case refused = 65
    /// The control socket could not be reached (EX_UNAVAILABLE).
    case unavailable = 69
    /// Reading or writing the socket failed or timed out (EX_IOERR).
    case ioError = 74
    /// `doctor`: the worst check is a warning (EX_TEMPFAIL).
    case doctorWarn = 75
    /// meshnoded replied with something that is not the protocol (EX_PROTOCOL).
    case protocolError = 76
    /// `doctor`: a check failed, or meshnoded's configuration file is bad (EX_CONFIG).
    case doctorFail = 78
    /// Ctrl-C (SIGINT) or SIGTERM ended a wait; a message waiting for a key was cancelled unless
    /// `--detach` was given (128 + SIGINT, as a shell reports it).
    case interrupted = 130
}
