/// What a transport says of itself: its counters for `relayctl stats` and a line on its progress
/// for `relayctl status` and systemd's status text. The daemon reads it through ``MeshTransport``.
public struct TransportStatus: Equatable, Sendable {
    /// Counters by snake-case name (the `transport` group of `stats`).
    public var counters: [String: UInt64]
    /// How far the transport has come (BlueZ: "waiting for bluetoothd (retry in 4 s)"); nil when
    /// it has nothing to add to the neighbour count.
    public var summary: String?

    /// Creates a status.
    public init(counters: [String: UInt64] = [:], summary: String? = nil) {
        self.counters = counters
        self.summary = summary
    }
}
