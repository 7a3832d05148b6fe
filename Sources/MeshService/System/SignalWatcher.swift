import Dispatch
import Glibc
import Synchronization

/// Turns SIGTERM/SIGINT into a stop callback and SIGHUP into a reload callback on a queue.
///
/// The default actions are replaced by `SIG_IGN` first, so the signals only reach the
/// dispatch sources; SIGPIPE is ignored too (sockets use MSG_NOSIGNAL, but stderr may be a pipe).
public final class SignalWatcher: Sendable {
    private let sources = Mutex<[any DispatchSourceSignal]>([])
    private let queue: DispatchQueue
    private let onStop: @Sendable (Int32) -> Void
    private let onReload: @Sendable () -> Void

    /// Creates a watcher; callbacks run on `queue`. `onStop` gets the signal number.
    public init(queue: DispatchQueue, onStop: @escaping @Sendable (Int32) -> Void, onReload: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.onStop = onStop
        self.onReload = onReload
    }

    deinit { cancel() }

    /// Ignores the signals' default actions and starts watching.
    public func start() {
        signal(SIGPIPE, SIG_IGN)
        let onStop = onStop
        let onReload = onReload
        sources.withLock { current in
            for source in current { source.cancel() }
            current = []
            for number in [SIGTERM, SIGINT, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { number == SIGHUP ? onReload() : onStop(number) }
                source.resume()
                current.append(source)
            }
        }
    }

    /// Stops watching; the signals stay ignored.
    public func cancel() {
        sources.withLock { current in
            for source in current { source.cancel() }
            current = []
        }
    }
}
