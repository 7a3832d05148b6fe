import ControlProtocol
import MeshNode
import MeshProtocol

/// What the control server needs from the node; the daemon implements it over the engine.
///
/// Every method may be called from the control server's queue at any time, so the
/// implementation must be thread-safe; none may block for long.
public protocol NodeControlling: Sendable {
    /// Sends a chat message, broadcast when `destination` is nil; returns its message ID and
    /// how many neighbours it went to at once or is held for.
    func send(text: String, to destination: NodeID?) throws(ControlFailure) -> OriginatedMessage
    /// What is known of `node`; starts a key lookup for it when its key is not known, none is in
    /// flight and `start` is true.
    func lookup(_ node: NodeID, start: Bool) throws(ControlFailure) -> LookupReport
    /// Cancels one of this node's own messages waiting for a key, in memory or in the mailbox
    /// database, so it is never sent; `unknownMessage` when none waits with this ID.
    func cancel(_ messageID: MessageID) throws(ControlFailure) -> CancelReport
    /// Neighbours and known remote nodes.
    func peers() -> PeersReport
    /// Uptime, memory and counters.
    func stats() -> StatsReport
    /// A one-screen summary.
    func status() -> StatusReport
    /// This node's identity.
    func identity() -> IdentityReport
    /// Mail held for recipients not in range, per recipient.
    func mailbox() -> MailboxReport
    /// Registers a sink for events; returns a token for `removeWatcher`.
    ///
    /// The sink may be called from any thread and must return quickly.
    func addWatcher(_ sink: @escaping @Sendable (WatchEvent) -> Void) -> UInt64
    /// Removes a sink; no call starts after this returns.
    func removeWatcher(_ token: UInt64)
}

extension NodeControlling {
    /// A node without a mailbox (test doubles).
    public func mailbox() -> MailboxReport { MailboxReport(enabled: false, recipients: [], databaseBytes: 0) }
}
