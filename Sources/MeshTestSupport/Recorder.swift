import Dispatch
import Glibc
import Synchronization

/// Collects items from callbacks on other threads and lets a test wait, with a deadline,
/// until they satisfy a condition. Waiting is event-driven (a semaphore), not sleeping.
public final class Recorder<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])
    private let signal = DispatchSemaphore(value: 0)

    /// Creates an empty recorder.
    public init() {}

    /// Records one item and wakes a waiter.
    public func append(_ item: Item) {
        items.withLock { $0.append(item) }
        signal.signal()
    }

    /// Everything recorded so far.
    public var all: [Item] { items.withLock { $0 } }

    /// Waits until `predicate` holds or `timeout` passes; returns whether it held.
    @discardableResult
    public func wait(timeout: Duration = .seconds(10), until predicate: ([Item]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if predicate(all) { return true }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return predicate(all) }
            let nanoseconds = Int(remaining / .nanoseconds(1))
            _ = signal.wait(timeout: .now() + .nanoseconds(min(nanoseconds, 100_000_000)))
        }
    }
}

/// Waits up to `timeout` for `fd` to become readable.
public func waitReadable(_ fd: Int32, timeout: Duration) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(timeout / .milliseconds(1))
    return poll(&descriptor, 1, milliseconds) == 1
}
