/// What the control server has seen; it makes the `control` group of `relayctl stats`.
public struct ControlServerCounters: Equatable, Sendable {
    /// Clients accepted.
    public var connectionsAccepted: UInt64 = 0
    /// Clients refused because `maxClients` were connected.
    public var connectionsRejected: UInt64 = 0
    /// Request lines answered.
    public var requests: UInt64 = 0
    /// Lines that were not a valid request (including unknown commands).
    public var badRequests: UInt64 = 0
    /// Lines longer than `maxRequestBytes`.
    public var oversizedRequests: UInt64 = 0
    /// Lines not finished within `requestTimeout`.
    public var timedOutRequests: UInt64 = 0
    /// Lines cut short by the client closing its side.
    public var incompleteRequests: UInt64 = 0
    /// Requests the node refused (unknown node, too long, not ready, internal).
    public var nodeErrors: UInt64 = 0
    /// Clients dropped because their output queue exceeded `maxOutputBytes`.
    public var slowClientsDropped: UInt64 = 0
    /// Clients dropped because their queued output made no progress for `stuckTimeout`.
    public var stuckClientsDropped: UInt64 = 0
    /// Times a client's reading was paused because its output passed `pauseOutputBytes`.
    public var readsPaused: UInt64 = 0
    /// Turns that ended with requests still waiting, after `maxRequestsPerTurn`.
    public var turnsYielded: UInt64 = 0
    /// Clients connected now (a gauge, not a counter).
    public var connectedClients: UInt64 = 0
    /// Socket errors other than a client going away.
    public var ioErrors: UInt64 = 0
    /// `watch` subscriptions started.
    public var watchesStarted: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
