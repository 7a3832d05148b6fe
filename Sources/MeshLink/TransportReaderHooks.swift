/// What a transport's reader thread tells its owner around each batch of events it delivers,
/// so that the owner may handle the batch on that thread instead of waking one of its own.
///
/// The UDP transport's socket reader calls `willDeliver` before it reads a batch of datagrams
/// (whose events reach the handler given to `start`) and `didDeliver` after, on the same thread,
/// outside the transport's queue and holding none of its locks. The daemon's runtime defers
/// waking its engine queue between the two and then may run the engine right there
/// (docs/PERFORMANCE.md, "The daemon: CPU per relayed message"). Transports with no reader
/// thread of their own (BlueZ, the simulator) never call them.
public struct TransportReaderHooks: Sendable {
    /// Runs on the reader thread before it delivers a batch.
    public let willDeliver: @Sendable () -> Void
    /// Runs on the reader thread after the batch; the argument is true when the reader stopped
    /// at its batch bound with data possibly still waiting (it is busy), false when it read
    /// everything there was.
    public let didDeliver: @Sendable (_ moreWaiting: Bool) -> Void

    /// Creates the hooks.
    public init(willDeliver: @escaping @Sendable () -> Void, didDeliver: @escaping @Sendable (_ moreWaiting: Bool) -> Void) {
        self.willDeliver = willDeliver
        self.didDeliver = didDeliver
    }
}
