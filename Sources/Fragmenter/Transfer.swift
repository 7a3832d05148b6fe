/// One unfinished message on one link: its slices packed in arrival order plus where each one lies.
struct Transfer: Sendable {
    /// Where one slice lies in `data`.
    struct Slot: Sendable {
        var offset: UInt32
        var length: UInt32
    }

    let kind: UInt8
    let total: UInt16
    let started: Duration
    /// Distinguishes this transfer from an earlier one that used the same ID on the link.
    let serial: UInt64
    private(set) var data: [UInt8] = []
    private var slots: [UInt16: Slot] = [:]
    /// True while every slice so far arrived in sequence order, so `data` is the message prefix.
    private var inOrder = true
    /// Bytes charged to the link's budgets: slice bytes plus bookkeeping per fragment.
    private(set) var cost = 0

    init(kind: UInt8, total: UInt16, started: Duration, serial: UInt64) {
        self.kind = kind
        self.total = total
        self.started = started
        self.serial = serial
    }

    /// How many distinct fragments are held.
    var receivedCount: Int { slots.count }

    /// True when all fragments are held.
    var isComplete: Bool { slots.count == Int(total) }

    /// True when fragment `sequence` is already held.
    func holds(_ sequence: UInt16) -> Bool { slots[sequence] != nil }

    /// Stores the slice of `frame` (everything after the header) as fragment `sequence`.
    mutating func store(_ sequence: UInt16, from frame: [UInt8]) {
        let length = frame.count - FrameHeader.length
        if Int(sequence) != slots.count { inOrder = false }
        slots[sequence] = Slot(offset: UInt32(data.count), length: UInt32(length))
        data.append(contentsOf: frame[FrameHeader.length...])
        cost += length + FragmenterLimits.bookkeepingBytesPerFragment
    }

    /// The message in sequence order; call only when `isComplete`.
    func assemble() -> [UInt8] {
        if inOrder { return data }
        var ordered = [Slot](repeating: Slot(offset: 0, length: 0), count: Int(total))
        for (sequence, slot) in slots { ordered[Int(sequence)] = slot }
        var message: [UInt8] = []
        message.reserveCapacity(data.count)
        for slot in ordered {
            let start = Int(slot.offset)
            message.append(contentsOf: data[start..<start + Int(slot.length)])
        }
        return message
    }
}
