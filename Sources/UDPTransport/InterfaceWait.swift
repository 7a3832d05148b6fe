/// When a transport on a network interface tries again to open it (the interface missing, down,
/// or still without an IPv4 address from DHCP): after 1 s, then twice as long each time up to
/// 30 s. A pure value: the caller keeps the clock.
public struct InterfaceWait: Equatable, Sendable {
    /// The first wait.
    public static let initial = Duration.seconds(1)
    /// The longest wait.
    public static let maximum = Duration.seconds(30)
    /// Failed attempts so far.
    public private(set) var failures = 0
    /// Why the last attempt failed; nil before the first failure.
    public private(set) var reason: String?

    /// Creates a wait with no failure yet.
    public init() {}

    /// Records a failed attempt and returns the wait before the next one.
    public mutating func failed(_ reason: String) -> Duration {
        var delay = Self.initial
        for _ in 0..<min(failures, 16) where delay < Self.maximum { delay = min(Self.maximum, delay * 2) }
        failures += 1
        self.reason = reason
        return delay
    }
}
