import Glibc

/// The pause between relayctl's polls while it waits for a key lookup, cut short by Ctrl-C.
///
/// SIGINT and SIGTERM are blocked in the calling thread from the first call on, so they stay
/// pending instead of killing relayctl in the middle of a request, and are taken here: the
/// caller then asks meshnoded to cancel what it was waiting for.
public enum InterruptiblePause {
    /// Waits `duration`; true when SIGINT or SIGTERM arrived (or was pending) instead.
    public static func wait(_ duration: Duration) -> Bool {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let (seconds, attoseconds) = duration.components
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        while true {
            if sigtimedwait(&signals, nil, &timeout) > 0 { return true }
            guard errno == EINTR else { return false }
        }
    }
}
