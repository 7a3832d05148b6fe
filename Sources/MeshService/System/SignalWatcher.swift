import Glibc

/// Takes SIGTERM/SIGINT (stop) and SIGHUP (reload) with `sigwaitinfo` on one thread, the
/// daemon's main thread.
///
/// libdispatch's signal sources cannot be trusted for a stop: `dispatchMain()` parks the main
/// thread in `sigsuspend` with every signal unblocked, and until libdispatch has armed a source
/// (asynchronously, on its manager thread) a signal that reaches that thread is lost while the
/// disposition is `SIG_IGN`, or kills the process while it is the default. CI once saw a
/// SIGTERM lost that way; a SIGTERM sent a few milliseconds after start-up showed the other case.
///
/// So `main` calls `blockWatchedSignals()` before any thread exists. Every thread inherits the
/// mask, no thread ever takes these signals, and a signal sent at any moment after that waits as
/// pending until `run` takes it: none is lost, none kills the node half-started.
public enum SignalWatcher {
    /// What a taken signal asks for.
    public enum Event: Equatable, Sendable {
        /// SIGTERM or SIGINT, with its number.
        case stop(Int32)
        /// SIGHUP.
        case reload
    }

    /// The signals the daemon takes.
    public static let watchedSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// The watched signals as a set.
    private static func watchedSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in watchedSignals { sigaddset(&set, number) }
        return set
    }

    /// Blocks the watched signals on the calling thread; threads it starts afterwards inherit
    /// the mask. Call it from `main` before anything starts a thread. Returns 0 or the error
    /// number of `pthread_sigmask`.
    @discardableResult
    public static func blockWatchedSignals() -> Int32 {
        var set = watchedSet()
        return pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until a watched signal is pending for the calling thread or the process and takes
    /// it. The signals must be blocked (`blockWatchedSignals()`), or the wait may never see them.
    public static func next() -> Event {
        var set = watchedSet()
        while true {
            let number = sigwaitinfo(&set, nil)
            if number == SIGHUP { return .reload }
            if number == SIGTERM || number == SIGINT { return .stop(number) }
            // -1 with EINTR: a stop and continue (SIGSTOP, SIGCONT) or another handled signal.
        }
    }

    /// Takes signals on the calling thread for the life of the process: `onReload` for each
    /// SIGHUP, `onStop` for the first SIGTERM or SIGINT. Both run on this thread, one at a time;
    /// signals sent meanwhile wait.
    public static func run(onStop: (Int32) -> Never, onReload: () -> Void) -> Never {
        signal(SIGPIPE, SIG_IGN)
        while true {
            switch next() {
            case .stop(let number): onStop(number)
            case .reload: onReload()
            }
        }
    }
}
