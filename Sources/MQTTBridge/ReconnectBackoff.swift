/// How long the bridge waits before its next connection attempt: `initial` doubled after every
/// failed attempt up to `maximum`, each wait drawn between half and all of that (jitter, so that
/// gateways that lost one broker do not return in step); back to `initial` once connected.
public struct ReconnectBackoff: Equatable, Sendable {
    /// The first wait.
    public let initial: Duration
    /// The longest wait.
    public let maximum: Duration
    /// Failed attempts since the last connection.
    public private(set) var failures = 0

    /// Creates a backoff; `maximum` is at least `initial`.
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(30)) {
        self.initial = max(.milliseconds(10), initial)
        self.maximum = max(self.initial, maximum)
    }

    /// The wait before the next attempt after one more failure; `fraction` in 0...1 picks the jitter
    /// (the caller draws it, so the value stays testable).
    public mutating func nextDelay(fraction: Double) -> Duration {
        var ceiling = initial
        for _ in 0..<min(failures, 32) where ceiling < maximum { ceiling = min(maximum, ceiling * 2) }
        failures += 1
        return ceiling * (0.5 + 0.5 * min(1, max(0, fraction)))
    }

    /// A connection succeeded: the next wait starts from `initial` again.
    public mutating func connected() {
        failures = 0
    }
}
