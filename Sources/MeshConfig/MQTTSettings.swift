/// `[mqtt]` settings: the bridge to other islands through an MQTT broker (docs/OPERATIONS.md,
/// "Bridging islands"; docs/PROTOCOL.md Part F). Off by default.
public struct MQTTSettings: Equatable, Sendable {
    /// True makes this node a gateway.
    public var enabled = false
    /// The broker's host name or address.
    public var host = "localhost"
    /// The broker's TCP port.
    public var port: UInt16 = 1883
    /// The topic prefix: levels of `A-Z a-z 0-9 _ -` separated by `/`.
    public var prefix = "relaychat/v1"
    /// The mesh's name on the broker: one level of `A-Z a-z 0-9 _ -`.
    public var mesh = "mesh"
    /// The hops an envelope from the broker carries into this island at most (docs/PROTOCOL.md Part F,
    /// "Hops"): it may then travel the kind's hop limit minus this here (0: the whole limit).
    public var downlinkHops: UInt8 = 0
    /// QoS of broadcasts and join notices (0 or 1); direct messages always use QoS 1.
    public var qos: Int32 = 0
    /// The most envelopes waiting for the broker during an outage.
    public var queueSize = 1024
    /// How long the broker keeps this gateway's session while it is away.
    public var sessionExpiry = Duration.seconds(3600)
    /// Envelopes per second one publishing gateway may hand this island.
    public var gatewayMessagesPerSecond = 20
    /// The burst of one publishing gateway.
    public var gatewayBurst = 100
    /// Envelopes per second all gateways together may hand this island.
    public var totalMessagesPerSecond = 100
    /// The burst of all gateways together.
    public var totalBurst = 400
    /// The CA file that vouches for the broker; TLS is on when set.
    public var caFile: String?
    /// This gateway's client certificate (PEM).
    public var certFile: String?
    /// The client certificate's key (PEM).
    public var keyFile: String?
    /// The MQTT user name.
    public var username: String?
    /// Where the password is: an absolute path, or the name of a systemd credential
    /// (`LoadCredential=`), read from `$CREDENTIALS_DIRECTORY`. The password itself is never kept here.
    public var passwordFile: String?

    /// Creates the defaults.
    public init() {}
}
