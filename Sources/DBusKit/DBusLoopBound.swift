import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A value owned by one ``DBusEventLoop``'s thread, checked at run time on every access.
///
/// The model is swift-nio's `NIOLoopBoundBox`: the box may travel between threads (it is
/// `Sendable`), but reading or changing its value anywhere but on the loop thread stops the
/// process instead of racing silently. A non-`Sendable` value is handed in with `sending`, so the
/// thread that built it keeps no reference of its own. The check is one atomic load and a
/// `pthread_self()`, cheap enough for every frame.
public final class DBusLoopBound<Value>: @unchecked Sendable {
    // @unchecked, and checked: `storage` is only touched after `preconditionOnLoop()`.
    private let owner: LoopThreadIdentity
    private let label: String
    private var storage: Value

    /// Puts `value` under the ownership of `loop`'s thread.
    public convenience init(_ value: sending Value, loop: DBusEventLoop) {
        self.init(value, owner: loop.identity, label: "\(Value.self)")
    }

    init(_ value: sending Value, owner: LoopThreadIdentity, label: String) {
        self.owner = owner
        self.label = label
        self.storage = value
    }

    /// True when the caller runs on the owning loop thread.
    public var isOnLoop: Bool { owner.isCurrent }

    /// Stops the process when the caller is not on the owning loop thread.
    public func preconditionOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(owner.isCurrent, "\(label) is confined to its D-Bus loop thread and was used from another",
                     file: file, line: line)
    }

    /// The value; only on the loop thread.
    public var value: Value {
        get {
            preconditionOnLoop()
            return storage
        }
        _modify {
            preconditionOnLoop()
            yield &storage
        }
    }
}
