import CSystemd
import Dispatch
import Glibc
import Synchronization

/// Talks to systemd through `sd_notify`: readiness, status, watchdog keep-alives, stopping.
///
/// `sd_notify` blocks while the notify socket's queue is full (a busy PID 1, or a test that
/// stops reading). So callers only queue a datagram; it is sent in order on the notifier's
/// own queue, and the engine and the stop path never wait on systemd. At most
/// `maxQueued` datagrams wait, and at most one keep-alive among them.
///
/// Without `NOTIFY_SOCKET` (not started by systemd with Type=notify) every call is a no-op.
public final class SystemdNotifier: Sendable {
    /// The most datagrams waiting to be sent; more are dropped and counted.
    public static let maxQueued = 16

    private let watchdogTimer = Mutex<DispatchSourceTimer?>(nil)
    private let sendQueue = DispatchQueue(label: "meshnoded.sd-notify")
    private let backlog = Mutex(Backlog())

    private struct Backlog {
        var queued = 0
        var keepAliveQueued = false
        var dropped: UInt64 = 0
    }

    /// Creates a notifier; `sd_notify` reads `NOTIFY_SOCKET` itself on each send.
    public init() {}

    deinit { stopWatchdog() }

    /// True when systemd is listening (`NOTIFY_SOCKET` is set).
    public var isActive: Bool { getenv("NOTIFY_SOCKET") != nil }

    /// Datagrams dropped because `maxQueued` were already waiting.
    public var droppedCount: UInt64 { backlog.withLock { $0.dropped } }

    /// Queues the messages as one datagram; false when systemd is absent, the backlog is
    /// full, or (for a keep-alive) one is already waiting.
    @discardableResult
    public func notify(_ messages: [NotifyMessage]) -> Bool {
        guard !messages.isEmpty, isActive else { return false }
        let isKeepAlive = messages == [.watchdog]
        let accepted = backlog.withLock { backlog -> Bool in
            if isKeepAlive, backlog.keepAliveQueued { return false }
            guard backlog.queued < Self.maxQueued else {
                backlog.dropped += 1
                return false
            }
            backlog.queued += 1
            if isKeepAlive { backlog.keepAliveQueued = true }
            return true
        }
        guard accepted else { return false }
        let payload = NotifyMessage.payload(messages)
        sendQueue.async { [self] in
            _ = sd_notify(0, payload)
            backlog.withLock { backlog in
                backlog.queued -= 1
                if isKeepAlive { backlog.keepAliveQueued = false }
            }
        }
        return true
    }

    /// Waits until everything queued so far has been sent, or `timeout` passed; true when sent.
    @discardableResult
    public func flush(timeout: Duration) -> Bool {
        let sent = DispatchSemaphore(value: 0)
        sendQueue.async { sent.signal() }
        return sent.wait(timeout: .now() + .nanoseconds(Int(timeout / .nanoseconds(1)))) == .success
    }

    /// `READY=1` with a status line.
    @discardableResult
    public func ready(status: String) -> Bool { notify([.ready, .status(status)]) }

    /// A status line.
    @discardableResult
    public func status(_ text: String) -> Bool { notify([.status(text)]) }

    /// `STOPPING=1` with a status line; also stops watchdog keep-alives.
    @discardableResult
    public func stopping(status: String = "stopping") -> Bool {
        stopWatchdog()
        return notify([.stopping, .status(status)])
    }

    /// `RELOADING=1` with the monotonic time; send `ready(status:)` when the reload is done.
    @discardableResult
    public func reloading() -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let micros = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return notify([.reloading, .monotonicMicroseconds(micros)])
    }

    /// The watchdog interval systemd expects (`WatchdogSec=`), or nil when it is off.
    public func watchdogInterval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// Sends `WATCHDOG=1` every half interval while `isHealthy` says so; false when the watchdog is off.
    ///
    /// `isHealthy` runs on `queue`; returning false skips that keep-alive, so a stuck node
    /// gets restarted by systemd.
    @discardableResult
    public func startWatchdog(queue: DispatchQueue, isHealthy: @escaping @Sendable () -> Bool = { true }) -> Bool {
        guard let interval = watchdogInterval() else { return false }
        let period = max(interval / 2, .milliseconds(1))
        let nanoseconds = Int(period / .nanoseconds(1))
        watchdogTimer.withLock { current in
            current?.cancel()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: .nanoseconds(nanoseconds), leeway: .nanoseconds(nanoseconds / 10))
            timer.setEventHandler { [weak self] in
                if isHealthy() { self?.notify([.watchdog]) }
            }
            timer.resume()
            current = timer
        }
        return true
    }

    /// Stops the keep-alives.
    public func stopWatchdog() {
        watchdogTimer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }
}
