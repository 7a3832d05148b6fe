/// Everything meshnoded reads from meshnoded.conf and its flags, each with its shipped default.
///
/// `DaemonSettings()` is the default configuration; `ConfigLoader` applies a file and flags.
public struct DaemonSettings: Equatable, Sendable {
    /// `[node]`: who the node is and where it keeps its files.
    public var node = NodeSettings()
    /// `[transport]`: which transports carry frames.
    public var transport = TransportSettings()
    /// `[udp]`: the loopback UDP transport for tests and local meshes.
    public var udp = UDPSettings()
    /// `[lan]`: a second UDP transport beside `[udp]`, with its own port and peers.
    public var lan = UDPSettings.lanDefaults
    /// `[bluez]`: the Bluetooth LE transport through BlueZ.
    public var bluez = BlueZSettings()
    /// `[relay]`: hop limits per message kind.
    public var relay = RelaySettings()
    /// `[timers]`: heartbeats, departures, handshakes, re-keying.
    public var timers = TimerSettings()
    /// `[seen]`: the seen-message-ID cache.
    public var seen = SeenSettings()
    /// `[fragments]`: reassembly limits.
    public var fragments = FragmentSettings()
    /// `[crypto]`: link sealing options.
    public var crypto = CryptoSettings()
    /// `[privacy]`: cover traffic.
    public var privacy = PrivacySettings()
    /// `[hold]`: what is held for neighbours whose link is down.
    public var hold = HoldSettings()
    /// `[budget]`: what one neighbour may cost the others.
    public var budget = BudgetSettings()
    /// `[lookup]`: key lookup for nodes whose key this node lacks.
    public var lookup = LookupSettings()
    /// `[links]`: the budget and deadline of links still without link keys.
    public var links = LinkSettings()
    /// `[mailbox]`: mail kept for recipients who are not in range.
    public var mailbox = MailboxSettings()
    /// `[mqtt]`: the bridge to other islands through an MQTT broker (off by default).
    public var mqtt = MQTTSettings()

    /// Creates the default configuration.
    public init() {}
}
