/// Timing and rekey limits of a link handshake.
public struct LinkHandshakeConfiguration: Sendable, Equatable {
    /// An opening sent less than this long ago is still in flight: do not send another.
    public var guardInterval: Duration
    /// Rekey after this many messages sent under one key.
    public var rekeyAfterMessages: UInt64
    /// Rekey after a key has been in use this long.
    public var rekeyInterval: Duration
    /// True on a link that loses no frame while it is up (BLE): an opening received while ours
    /// is unpaired crossed ours in flight, however long either took (PROTOCOL.md D4, rule 3).
    public var lossless: Bool = false
    /// False for a node that speaks only the signed key exchange of version 1 (PROTOCOL.md D3):
    /// it opens with version 1. Tests use it to stand for a node of an older release.
    public var speaksPrivate: Bool = true

    /// Creates a configuration (defaults: 2 s guard, 10,000 messages, 1 hour).
    public init(guardInterval: Duration = .seconds(2), rekeyAfterMessages: UInt64 = 10_000, rekeyInterval: Duration = .seconds(3600)) {
        self.guardInterval = guardInterval
        self.rekeyAfterMessages = rekeyAfterMessages
        self.rekeyInterval = rekeyInterval
    }
}
