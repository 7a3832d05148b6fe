/// The caps and timeouts of splitting and reassembly; every value is clamped to a usable minimum.
public struct FragmenterLimits: Equatable, Hashable, Sendable {
    /// The default message cap: 64 KiB.
    public static let defaultMaxMessageSize = 65_536
    /// The default reassembly timeout: 10 seconds.
    public static let defaultReassemblyTimeout = Duration.seconds(10)
    /// The default number of unfinished transfers per link.
    public static let defaultMaxTransfersPerLink = 32
    /// The default buffered-byte cap per link: 256 KiB.
    public static let defaultMaxBufferedBytesPerLink = 262_144
    /// The default buffered-byte cap across all links of a `LinkReassemblers`: 4 MiB.
    public static let defaultMaxBufferedBytesTotal = 4_194_304
    /// The default number of completed transfer IDs a link remembers to spot late duplicates.
    public static let defaultRememberedCompletionsPerLink = 1_024
    /// The default number of recently used transfer IDs a sender holds per link.
    public static let defaultHeldTransferIDsPerLink = 16_384
    /// Bytes charged per buffered fragment on top of its slice, for the receiver's bookkeeping:
    /// its 8-byte entry in the transfer's piece list (which may be up to twice as long as needed
    /// while it grows), its bit in the held-fragment bitmap, and malloc's rounding of the slice
    /// buffer. A transfer is charged more when more is reserved for its buffers.
    public static let bookkeepingBytesPerFragment = 40

    /// The largest message, in bytes, that is split or reassembled.
    public let maxMessageSize: Int
    /// How long a transfer may stay incomplete, counted from its first fragment.
    public let reassemblyTimeout: Duration
    /// How many unfinished transfers one link may hold; a new one beyond this evicts the oldest.
    public let maxTransfersPerLink: Int
    /// How many bytes one link may buffer (what its transfers are charged, see `Reassembler`).
    public let maxBufferedBytesPerLink: Int
    /// How many bytes all links of a `LinkReassemblers` may buffer together.
    public let maxBufferedBytesTotal: Int
    /// How many completed transfer IDs a link remembers (for one timeout) to ignore late duplicates.
    public let rememberedCompletionsPerLink: Int
    /// How many recently used transfer IDs a `FrameSender` holds; beyond it the oldest is released.
    public let heldTransferIDsPerLink: Int

    /// Creates limits; values below their minimum (1 byte, zero time, 1 transfer, 0 remembered IDs,
    /// 1 held ID) are raised to it, and the message cap is lowered to at most 2^31 − 1.
    public init(
        maxMessageSize: Int = defaultMaxMessageSize,
        reassemblyTimeout: Duration = defaultReassemblyTimeout,
        maxTransfersPerLink: Int = defaultMaxTransfersPerLink,
        maxBufferedBytesPerLink: Int = defaultMaxBufferedBytesPerLink,
        maxBufferedBytesTotal: Int = defaultMaxBufferedBytesTotal,
        rememberedCompletionsPerLink: Int = defaultRememberedCompletionsPerLink,
        heldTransferIDsPerLink: Int = defaultHeldTransferIDsPerLink
    ) {
        self.maxMessageSize = min(max(1, maxMessageSize), Int(Int32.max))
        self.reassemblyTimeout = max(.zero, reassemblyTimeout)
        self.maxTransfersPerLink = max(1, maxTransfersPerLink)
        self.maxBufferedBytesPerLink = max(1, maxBufferedBytesPerLink)
        self.maxBufferedBytesTotal = max(1, maxBufferedBytesTotal)
        self.rememberedCompletionsPerLink = max(0, rememberedCompletionsPerLink)
        self.heldTransferIDsPerLink = max(1, heldTransferIDsPerLink)
    }

    /// How long a sender holds a used transfer ID: twice the reassembly timeout, because frames
    /// may wait in a send queue before the receiver's timeout starts.
    public var transferIDHoldTime: Duration { reassemblyTimeout * 2 }
}
