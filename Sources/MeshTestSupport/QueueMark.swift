import Dispatch

/// Marks a dispatch queue so a block can tell whether it runs on it: a queue-specific key set on
/// that queue alone.
///
/// Tests capture the mark in `@Sendable` closures. The key it holds is immutable, but Swift 6.0's
/// Dispatch does not mark `DispatchSpecificKey` `Sendable` (later ones do), so the mark is the
/// `Sendable` box around it.
public final class QueueMark: @unchecked Sendable {
    // @unchecked: the only stored property is a constant reference to a key Dispatch itself
    // reads from any thread.
    private let key = DispatchSpecificKey<Void>()

    /// Marks `queue`.
    public init(_ queue: DispatchQueue) {
        queue.setSpecific(key: key, value: ())
    }

    /// True when the caller runs on the marked queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }
}
