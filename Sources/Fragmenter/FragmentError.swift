/// Why a received frame was rejected; each case has a counter of the same name in `FragmenterCounters`.
public enum FragmentError: Error, Equatable, Hashable, Sendable {
    /// The frame is shorter than the 9-byte header.
    case frameTooShort(length: Int)
    /// The header's total is 0.
    case zeroTotal
    /// The sequence number is not below the total.
    case sequenceOutOfRange(sequence: UInt16, total: UInt16)
    /// The frame is a bare header with no slice bytes.
    case emptySlice
    /// The fragment implies a message larger than the message cap (a transfer proven too large is dropped).
    case messageTooLarge(impliedSize: Int, limit: Int)
    /// The kind differs from the kind of the transfer's earlier fragments; that transfer was dropped.
    case kindMismatch(expected: UInt8, received: UInt8)
    /// The total differs from the total of the transfer's earlier fragments; that transfer was dropped.
    case totalMismatch(expected: UInt16, received: UInt16)
    /// The transfer cannot fit the link's byte cap even alone; it was dropped.
    case linkBufferFull
    /// The transfer cannot fit what the total byte cap leaves for this link; it was dropped.
    case totalBufferFull
}
