import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Which thread runs a ``DBusEventLoop`` now: set by the loop thread when it starts, cleared when it ends.
final class LoopThreadIdentity: Sendable {
    private static let none: UInt = 0
    private let current = Atomic<UInt>(LoopThreadIdentity.none)

    /// Called on the loop thread when it starts.
    func claim() { current.store(UInt(pthread_self()), ordering: .releasing) }

    /// Called on the loop thread as it ends, so a later thread that reuses its ID is not taken for it.
    func release() { current.store(Self.none, ordering: .releasing) }

    /// True when the caller runs on the loop thread.
    var isCurrent: Bool {
        let owner = current.load(ordering: .acquiring)
        return owner != Self.none && pthread_equal(pthread_t(owner), pthread_self()) != 0
    }
}
