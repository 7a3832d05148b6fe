import Dispatch

/// A value owned by one serial dispatch queue, checked at run time on every access.
///
/// The model is swift-nio's `NIOLoopBoundBox`: the box may travel between threads (it is
/// `Sendable`), but reading or changing the value anywhere but on its queue stops the process
/// with a message naming the queue, instead of racing silently. The check is a thread-local
/// lookup (`DispatchQueue.getSpecific`), cheap enough for every frame.
public final class QueueConfined<Value>: @unchecked Sendable {
    // @unchecked, and checked: `storage` is only touched after `preconditionOnQueue()`.
    /// The queue that owns the value.
    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<ObjectIdentifier>()
    private var storage: Value

    /// Puts `value` under `queue`'s ownership.
    public init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        self.storage = value
        queue.setSpecific(key: key, value: ObjectIdentifier(self))
    }

    /// True when the caller runs on the owning queue.
    public var isOnQueue: Bool { DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self) }

    /// Stops the process when the caller is not on the owning queue.
    public func preconditionOnQueue(file: StaticString = #fileID, line: UInt = #line) {
        precondition(isOnQueue, "state confined to queue '\(queue.label)' used from elsewhere", file: file, line: line)
    }

    /// The value for an owner's `deinit`, which no other thread can reach any more: the one
    /// access that skips the check. Never call it anywhere else.
    public func valueInOwnersDeinit() -> Value { storage }

    /// The value; only on the owning queue.
    public var value: Value {
        _read {
            preconditionOnQueue()
            yield storage
        }
        _modify {
            preconditionOnQueue()
            yield &storage
        }
    }
}
