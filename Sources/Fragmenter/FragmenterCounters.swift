/// Counts of what reassembly did with frames and transfers; one field per outcome.
///
/// Every frame handed to a reassembler adds exactly 1 to `accepted`, `duplicate`,
/// `lateDuplicate` or one rejection counter (the fields named like `FragmentError` cases).
/// A transfer that ends unfinished is counted once: by the rejection that dropped it
/// (`kindMismatch`, `totalMismatch`, `messageTooLarge`, `linkBufferFull`, `totalBufferFull`)
/// or by one of the eviction counters (`timedOut`, `evicted…`, `droppedWithLink`).
public struct FragmenterCounters: Equatable, Hashable, Sendable {
    /// Frames shorter than the 9-byte header.
    public var frameTooShort = 0
    /// Frames whose total was 0.
    public var zeroTotal = 0
    /// Frames whose sequence number was not below their total.
    public var sequenceOutOfRange = 0
    /// Frames with a header and no slice.
    public var emptySlice = 0
    /// Frames implying, or transfers proven to need, a message above the message cap.
    public var messageTooLarge = 0
    /// Frames whose kind disagreed with their transfer (the transfer was dropped).
    public var kindMismatch = 0
    /// Frames whose total disagreed with their transfer (the transfer was dropped).
    public var totalMismatch = 0
    /// Frames whose transfer could not fit the link byte cap even alone (the transfer was dropped).
    public var linkBufferFull = 0
    /// Frames whose transfer could not fit the room the total byte cap left (the transfer was dropped).
    public var totalBufferFull = 0
    /// Frames repeating a sequence number their unfinished transfer already holds (ignored).
    public var duplicate = 0
    /// Frames of a transfer that completed within the last timeout (ignored).
    public var lateDuplicate = 0
    /// Frames taken into a transfer (including the ones that completed it).
    public var accepted = 0
    /// Messages reassembled and returned.
    public var completed = 0
    /// Transfers freed because they were not complete within the timeout.
    public var timedOut = 0
    /// Oldest transfers evicted to make room for a new one beyond the per-link transfer cap.
    public var evictedTransferCap = 0
    /// Oldest transfers evicted to keep the link under its byte cap.
    public var evictedLinkByteCap = 0
    /// Oldest transfers evicted to keep all links under the total byte cap.
    public var evictedTotalByteCap = 0
    /// Unfinished transfers discarded because their link was removed.
    public var droppedWithLink = 0

    /// Creates counters at zero.
    public init() {}

    /// The sum of all rejection counters.
    public var rejected: Int {
        frameTooShort + zeroTotal + sequenceOutOfRange + emptySlice + messageTooLarge
            + kindMismatch + totalMismatch + linkBufferFull + totalBufferFull
    }

    /// The sum of all counters of transfers that ended without completing.
    public var evicted: Int {
        timedOut + evictedTransferCap + evictedLinkByteCap + evictedTotalByteCap + droppedWithLink
    }

    /// Adds 1 to the counter named after `error`.
    public mutating func record(_ error: FragmentError) {
        switch error {
        case .frameTooShort: frameTooShort += 1
        case .zeroTotal: zeroTotal += 1
        case .sequenceOutOfRange: sequenceOutOfRange += 1
        case .emptySlice: emptySlice += 1
        case .messageTooLarge: messageTooLarge += 1
        case .kindMismatch: kindMismatch += 1
        case .totalMismatch: totalMismatch += 1
        case .linkBufferFull: linkBufferFull += 1
        case .totalBufferFull: totalBufferFull += 1
        }
    }

    /// Field-by-field sum, for totals across links.
    public static func + (lhs: FragmenterCounters, rhs: FragmenterCounters) -> FragmenterCounters {
        var sum = lhs
        sum.frameTooShort += rhs.frameTooShort
        sum.zeroTotal += rhs.zeroTotal
        sum.sequenceOutOfRange += rhs.sequenceOutOfRange
        sum.emptySlice += rhs.emptySlice
        sum.messageTooLarge += rhs.messageTooLarge
        sum.kindMismatch += rhs.kindMismatch
        sum.totalMismatch += rhs.totalMismatch
        sum.linkBufferFull += rhs.linkBufferFull
        sum.totalBufferFull += rhs.totalBufferFull
        sum.duplicate += rhs.duplicate
        sum.lateDuplicate += rhs.lateDuplicate
        sum.accepted += rhs.accepted
        sum.completed += rhs.completed
        sum.timedOut += rhs.timedOut
        sum.evictedTransferCap += rhs.evictedTransferCap
        sum.evictedLinkByteCap += rhs.evictedLinkByteCap
        sum.evictedTotalByteCap += rhs.evictedTotalByteCap
        sum.droppedWithLink += rhs.droppedWithLink
        return sum
    }
}
