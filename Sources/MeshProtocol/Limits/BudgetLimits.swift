/// What one neighbour may cost the others (docs/PROTOCOL.md Part E, "Budgets").
///
/// Every message or join notice a neighbour hands us that passes the cheap checks (not seen,
/// not looped, within its hop limit, fresh) spends one message token and its payload size in
/// byte tokens from the share of the upstream it came through at that neighbour, and from the
/// neighbour's total (see `NeighbourBudgets` in MeshNode). What finds no tokens is **never relayed**; it is
/// still delivered here when it is for us and a signature check can be spared for it. Each
/// signature check spends a token from one bucket shared by all neighbours; checks for
/// neighbours beyond their share may use only the upper half of it, so the lower half is
/// always there for neighbours within their share. A check that fails costs its sender
/// `failedVerificationPenalty` message tokens (as a debt), so forged signatures cost bounded
/// CPU and soon cost the forger its whole share.
public struct BudgetLimits: Equatable, Sendable {
    /// Message tokens a neighbour earns per second.
    public var messagesPerSecond: Double
    /// The most message tokens a neighbour can save up.
    public var messageBurst: Double
    /// Byte tokens a neighbour earns per second.
    public var bytesPerSecond: Double
    /// The most byte tokens a neighbour can save up.
    public var byteBurst: Double
    /// Signature checks per second, all neighbours together.
    public var verificationsPerSecond: Double
    /// The most signature checks that can be saved up.
    public var verificationBurst: Double
    /// Message tokens a failed signature check costs its sender.
    public var failedVerificationPenalty: Double
    /// A neighbour's total share, in upstream shares (what it relays from several upstreams).
    public var neighbourShareFactor: Double
    /// Upstreams with a share of their own at one neighbour; any further ones share one.
    public var maxUpstreamsPerNeighbour: Int

    /// Creates limits; the defaults leave room for a busy event (a join catch-up of 16 notices
    /// and a hold release of 64 messages fit in one burst) and cap a flooding neighbour at a
    /// small fraction of a BLE link's capacity.
    public init(
        messagesPerSecond: Double = 20, messageBurst: Double = 100,
        bytesPerSecond: Double = 32_768, byteBurst: Double = 196_608,
        verificationsPerSecond: Double = 400, verificationBurst: Double = 800,
        failedVerificationPenalty: Double = 10, neighbourShareFactor: Double = 2, maxUpstreamsPerNeighbour: Int = 16
    ) {
        self.messagesPerSecond = messagesPerSecond
        self.messageBurst = messageBurst
        self.bytesPerSecond = bytesPerSecond
        self.byteBurst = byteBurst
        self.verificationsPerSecond = verificationsPerSecond
        self.verificationBurst = verificationBurst
        self.failedVerificationPenalty = failedVerificationPenalty
        self.neighbourShareFactor = neighbourShareFactor
        self.maxUpstreamsPerNeighbour = maxUpstreamsPerNeighbour
    }

    /// No limits at all (tests and simulations that measure the rules alone).
    public static let unlimited = BudgetLimits(
        messagesPerSecond: .infinity, messageBurst: .infinity, bytesPerSecond: .infinity, byteBurst: .infinity,
        verificationsPerSecond: .infinity, verificationBurst: .infinity, failedVerificationPenalty: 0,
        neighbourShareFactor: 1, maxUpstreamsPerNeighbour: 1)
}
