/// One unfinished message on one link: its slices packed in arrival order in one buffer, a list
/// of which fragment each slice is, and a bitmap of the fragments held.
///
/// `cost`, what the link's budgets are charged, is the larger of the protocol's per-fragment
/// charge (slice bytes plus `FragmenterLimits.bookkeepingBytesPerFragment` each) and the bytes
/// reserved for the three buffers (`allocatedBytes`), so growth slack is charged too. The
/// reservations are the sizes asked of malloc, not what it rounded them up to (which depends on
/// the heap's state), so the charge is the same in every run; the rounding is part of what the
/// per-fragment bookkeeping covers.
struct Transfer: Sendable {
    /// One held fragment, in arrival order.
    struct Piece: Sendable {
        var sequence: UInt16
        var length: UInt32
    }

    let kind: UInt8
    let total: UInt16
    let started: Duration
    /// Distinguishes this transfer from an earlier one that used the same ID on the link.
    let serial: UInt64
    private(set) var data: [UInt8] = []
    private var pieces: [Piece] = []
    /// The element counts reserved for `data` and `pieces`.
    private var dataReserved = 0
    private var piecesReserved = 0
    private var held: [UInt64]
    /// True while every slice so far arrived in sequence order, so `data` is the message prefix.
    private var inOrder = true
    /// The protocol's charge so far: slice bytes plus bookkeeping per fragment.
    private var fragmentCharge = 0
    /// The largest slice seen, to size the buffer for the whole message in one step at most.
    private var largestSlice = 0
    private let maxMessageSize: Int
    /// What the reassembler has added to its `bufferedBytes` for this transfer so far.
    var charged = 0

    init(kind: UInt8, total: UInt16, started: Duration, serial: UInt64, maxMessageSize: Int) {
        self.kind = kind
        self.total = total
        self.started = started
        self.serial = serial
        self.maxMessageSize = maxMessageSize
        self.held = []
    }

    /// How many distinct fragments are held.
    var receivedCount: Int { pieces.count }

    /// True when all fragments are held.
    var isComplete: Bool { pieces.count == Int(total) }

    /// Bytes charged to the link's budgets (see the type's documentation).
    var cost: Int { max(fragmentCharge, allocatedBytes) }

    /// Bytes of element storage reserved for the buffers.
    var allocatedBytes: Int {
        dataReserved + piecesReserved * MemoryLayout<Piece>.stride + held.count * MemoryLayout<UInt64>.stride
    }

    /// True when fragment `sequence` is already held.
    func holds(_ sequence: UInt16) -> Bool {
        let word = Int(sequence) >> 6
        return word < held.count && held[word] & (1 << UInt64(sequence & 63)) != 0
    }

    /// Stores the slice of `frame` (everything after the header) as fragment `sequence`.
    mutating func store(_ sequence: UInt16, from frame: [UInt8]) {
        let length = frame.count - FrameHeader.length
        if Int(sequence) != pieces.count { inOrder = false }
        if held.isEmpty {
            held = [UInt64](repeating: 0, count: (Int(total) + 63) >> 6)
        }
        held[Int(sequence) >> 6] |= 1 << UInt64(sequence & 63)
        largestSlice = max(largestSlice, length)
        grow(toFit: data.count + length)
        if pieces.count == piecesReserved {
            piecesReserved = min(Int(total), max(1, 2 * piecesReserved))
            pieces.reserveCapacity(piecesReserved)
        }
        pieces.append(Piece(sequence: sequence, length: UInt32(length)))
        data.append(contentsOf: frame[FrameHeader.length...])
        fragmentCharge += length + FragmenterLimits.bookkeepingBytesPerFragment
    }

    /// Doubles the buffer when full, but never past the size the whole message can have, so the
    /// last step does not leave up to half the buffer unused.
    private mutating func grow(toFit needed: Int) {
        guard needed > dataReserved else { return }
        let whole = min(maxMessageSize, Int(total) * largestSlice)
        dataReserved = max(needed, min(2 * dataReserved, whole))
        data.reserveCapacity(dataReserved)
    }

    /// The message in sequence order; call only when `isComplete`.
    func assemble() -> [UInt8] {
        if inOrder { return data }
        var offsets = [Int](repeating: 0, count: Int(total))
        var lengths = [Int](repeating: 0, count: Int(total))
        var offset = 0
        for piece in pieces {
            offsets[Int(piece.sequence)] = offset
            lengths[Int(piece.sequence)] = Int(piece.length)
            offset += Int(piece.length)
        }
        var message: [UInt8] = []
        message.reserveCapacity(data.count)
        for sequence in 0..<Int(total) {
            let start = offsets[sequence]
            message.append(contentsOf: data[start..<start + lengths[sequence]])
        }
        return message
    }
}
