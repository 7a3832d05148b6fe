/// How many links may be in their key exchange at once, and for how long (docs/PROTOCOL.md Part E).
public struct LinkAdmissionLimits: Equatable, Sendable {
    /// The most links without link keys at once, all transports together; past it the oldest
    /// unkeyed link from a stranger is closed. The daemon caps it at half the slots of its transports together.
    public var maxUnkeyedLinks: Int
    /// The most links without link keys at once on one transport, by transport port index
    /// (`PortID.index`); past it that transport's oldest unkeyed stranger's link is closed, so a
    /// flood on one transport cannot take the others' places. The daemon sets half each
    /// transport's slots; a port not listed has only `maxUnkeyedLinks`.
    public var maxUnkeyedPerTransport: [UInt8: Int] = [:]
    /// The most links without link keys from one address (`LinkInfo.admissionAddress`: a BLE
    /// address, a UDP host); past it that address's oldest goes.
    public var maxUnkeyedPerAddress: Int
    /// How long a link from a stranger may stay without link keys (a returning neighbour's
    /// link has the whole handshake timeout).
    public var keyDeadline: Duration
    /// How long a stranger's unkeyed link is safe from being displaced by another stranger's on
    /// its transport: a handshake's chance to finish (never longer than `keyDeadline`).
    public var evictionGrace: Duration
    /// How long addresses of keyed links are remembered as returning neighbours' addresses.
    public var neighbourMemory: Duration
    /// The most addresses remembered; the least recently keyed go first.
    public var rememberedNeighbours: Int

    /// Creates limits; the defaults are the documented ones.
    public init(
        maxUnkeyedLinks: Int = 32, maxUnkeyedPerAddress: Int = 2, keyDeadline: Duration = .seconds(6),
        evictionGrace: Duration = .seconds(2), neighbourMemory: Duration = .seconds(600), rememberedNeighbours: Int = 256
    ) {
        self.maxUnkeyedLinks = max(1, maxUnkeyedLinks)
        self.maxUnkeyedPerAddress = max(1, maxUnkeyedPerAddress)
        self.keyDeadline = keyDeadline
        self.evictionGrace = max(.zero, min(evictionGrace, keyDeadline))
        self.neighbourMemory = neighbourMemory
        self.rememberedNeighbours = max(1, rememberedNeighbours)
    }
}
