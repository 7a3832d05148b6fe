import MeshLink
import Synchronization

/// What threads other than the D-Bus loop thread read or write: the counters (snapshots for
/// `stats`), the link list (published by the loop thread whenever a link comes, goes or changes)
/// the transport's state (published by the loop thread whenever it changes) and the profile characteristic's value (set by the node, read by the loop thread). Every send
/// decision and the links themselves stay on the loop thread, in ``BlueZSession``.
struct BlueZShared: Sendable {
    var counters = BlueZCounters()
    var links: [LinkInfo] = []
    var profile: [UInt8] = []
    var discoverable = false
    /// The name to advertise (set by the node each epoch, read by the loop thread).
    var localName: String?
    /// How far the transport has come, as the loop thread last published it.
    var state = BlueZTransportState.connectingToBus(retryAt: nil)
}

/// A lock around ``BlueZShared``, shared by the transport and its session.
final class BlueZSharedBox: Sendable {
    private let state = Mutex(BlueZShared())

    /// Runs `body` with exclusive access.
    func withLock<R: Sendable>(_ body: (inout BlueZShared) -> R) -> R {
        state.withLock { body(&$0) }
    }
}
