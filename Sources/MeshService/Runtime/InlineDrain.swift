/// What the UDP reader thread does with the engine's inbox after a batch of datagrams: nothing,
/// run the engine itself for a bounded turn, or wake an engine queue worker as before.
public enum InlineDrain: Equatable, Sendable {
    /// Nothing waits, or a drain is already queued and will take it.
    case nothing
    /// The reader runs the engine on its own thread (`queue.sync`), for at most this many events.
    case inline(maxEvents: Int)
    /// A worker drains the inbox (`queue.async`) while the reader goes back to its socket.
    case handOff

    /// Events one inline turn handles at most: under 3 ms of engine work at ~175 µs a message (a
    /// 2-vCPU VM), during which the socket's 4 MiB receive buffer holds far more than that.
    public static let maxInlineEvents = 16

    /// The decision, from what waits and what the reader saw.
    ///
    /// The reader runs the engine only when its socket was empty (it read everything there was),
    /// no drain is queued, and the backlog fits one bounded turn. Under a flood the reader stops at
    /// its batch bound or the backlog is deeper: a worker drains while the reader keeps reading,
    /// so the FairInbox, not the socket's FIFO, decides which link waits (a flooding link is held
    /// to its share and the others' frames still get in).
    public static func decide(waitingEvents: Int, drainQueued: Bool, socketBusy: Bool, maxEvents: Int = maxInlineEvents) -> InlineDrain {
        guard waitingEvents > 0, !drainQueued else { return .nothing }
        guard !socketBusy, waitingEvents <= maxEvents else { return .handOff }
        return .inline(maxEvents: maxEvents)
    }
}
