/// Reassembles the frames received on one link; transfers of different links never mix.
///
/// Fragments may arrive in any order. Each call takes `now`, the time since an arbitrary fixed
/// origin (never decreasing), and first frees transfers older than the reassembly timeout.
/// Rejections are thrown as `FragmentError` and counted in `counters`.
public struct Reassembler: Sendable {
    private struct OrderEntry: Sendable {
        let id: UInt32
        let serial: UInt64
    }

    /// The limits in force. A lone reassembler applies both the per-link and the total byte cap.
    public let limits: FragmenterLimits
    /// What this link's frames and transfers came to so far.
    public private(set) var counters = FragmenterCounters()
    /// Bytes charged for unfinished transfers: per transfer, the larger of its slice bytes plus
    /// `bookkeepingBytesPerFragment` each and the bytes reserved for its buffers.
    public private(set) var bufferedBytes = 0
    private var transfers: [UInt32: Transfer] = [:]
    /// Transfer IDs in creation order (oldest first); entries of finished transfers are skipped.
    private var order = FIFOQueue<OrderEntry>()
    private var nextSerial: UInt64 = 0
    private var completions: CompletionMemory

    /// Creates an empty reassembler.
    public init(limits: FragmenterLimits = FragmenterLimits()) {
        self.limits = limits
        self.completions = CompletionMemory(capacity: limits.rememberedCompletionsPerLink)
    }

    /// Bytes reserved for the unfinished transfers' buffers (never more than `bufferedBytes`).
    var allocatedBytes: Int { transfers.values.reduce(0) { sum, transfer in sum + transfer.allocatedBytes } }

    /// How many unfinished transfers are held.
    public var transferCount: Int { transfers.count }

    /// True when an unfinished transfer with this ID is held.
    public func isInFlight(_ transferID: UInt32) -> Bool { transfers[transferID] != nil }

    /// Takes one frame received at `now`.
    public mutating func receive(_ frame: [UInt8], now: Duration) throws(FragmentError) -> ReassemblyResult {
        try receive(frame, now: now, allowance: limits.maxBufferedBytesTotal)
    }

    /// Frees transfers not complete within the timeout of their first fragment.
    public mutating func expire(now: Duration) {
        let timeout = limits.reassemblyTimeout
        while let oldest = order.first {
            guard let transfer = transfers[oldest.id], transfer.serial == oldest.serial else {
                order.removeFirst()
                continue
            }
            guard now - transfer.started >= timeout else { break }
            remove(oldest.id)
            counters.timedOut += 1
        }
        completions.expire(now: now, timeout: timeout)
    }

    /// Drops every unfinished transfer, counting each in `droppedWithLink`.
    public mutating func removeAll() {
        counters.droppedWithLink += transfers.count
        transfers.removeAll()
        order.removeAll()
        bufferedBytes = 0
    }

    /// Takes one frame; this link may buffer at most `allowance` bytes on account of the total cap.
    mutating func receive(_ frame: [UInt8], now: Duration, allowance: Int) throws(FragmentError) -> ReassemblyResult {
        expire(now: now)
        do {
            return try intake(frame, now: now, allowance: allowance)
        } catch {
            counters.record(error)
            throw error
        }
    }

    private mutating func intake(_ frame: [UInt8], now: Duration, allowance: Int) throws(FragmentError) -> ReassemblyResult {
        let header = try FrameHeader(parsing: frame)
        let id = header.transferID
        let sliceLength = frame.count - FrameHeader.length
        let total = Int(header.total)
        let implied = header.isLast ? total * sliceLength : (total - 1) * sliceLength + 1
        guard implied <= limits.maxMessageSize else {
            throw .messageTooLarge(impliedSize: implied, limit: limits.maxMessageSize)
        }
        if completions.contains(id) {
            counters.lateDuplicate += 1
            return .duplicate
        }
        let completes: Bool
        if let existing = transfers[id] {
            guard existing.kind == header.kind else {
                remove(id)
                throw .kindMismatch(expected: existing.kind, received: header.kind)
            }
            guard existing.total == header.total else {
                remove(id)
                throw .totalMismatch(expected: existing.total, received: header.total)
            }
            if existing.holds(header.sequence) {
                counters.duplicate += 1
                return .duplicate
            }
            let minimum = existing.data.count + sliceLength + (total - existing.receivedCount - 1)
            guard minimum <= limits.maxMessageSize else {
                remove(id)
                throw .messageTooLarge(impliedSize: minimum, limit: limits.maxMessageSize)
            }
            completes = existing.receivedCount + 1 == total
        } else if total == 1 {
            return complete(kind: header.kind, transferID: id, message: Array(frame[FrameHeader.length...]), now: now)
        } else {
            completes = false
            transfers[id] = Transfer(
                kind: header.kind, total: header.total, started: now, serial: nextSerial,
                maxMessageSize: limits.maxMessageSize)
            order.append(OrderEntry(id: id, serial: nextSerial))
            nextSerial &+= 1
        }
        // Store first, then charge what the transfer grew by (its buffers' real growth included).
        transfers[id]?.store(header.sequence, from: frame)
        guard !completes, let stored = transfers[id] else {
            guard let done = remove(id) else { return .incomplete }
            return complete(kind: done.kind, transferID: id, message: done.assemble(), now: now)
        }
        try makeRoom(stored.cost - stored.charged, for: id, allowance: allowance)
        bufferedBytes += stored.cost - stored.charged
        transfers[id]?.charged = stored.cost
        counters.accepted += 1
        return .incomplete
    }

    private mutating func complete(kind: UInt8, transferID: UInt32, message: [UInt8], now: Duration) -> ReassemblyResult {
        counters.accepted += 1
        counters.completed += 1
        completions.remember(transferID, now: now)
        return .complete(kind: kind, transferID: transferID, message: message)
    }

    /// Evicts this link's oldest other transfers until `cost` more bytes for transfer `id` fit
    /// both caps, or drops transfer `id` and throws when it cannot fit even alone.
    private mutating func makeRoom(_ cost: Int, for id: UInt32, allowance: Int) throws(FragmentError) {
        let linkCap = limits.maxBufferedBytesPerLink
        let cap = min(linkCap, allowance)
        let own = transfers[id]?.charged ?? 0
        guard own + cost <= cap else {
            remove(id)
            throw own + cost > linkCap ? .linkBufferFull : .totalBufferFull
        }
        if own == 0, transfers.count > limits.maxTransfersPerLink, let victim = oldest(excluding: id) {
            remove(victim)
            counters.evictedTransferCap += 1
        }
        while bufferedBytes + cost > cap, let victim = oldest(excluding: id) {
            let overLinkCap = bufferedBytes + cost > linkCap
            remove(victim)
            if overLinkCap { counters.evictedLinkByteCap += 1 } else { counters.evictedTotalByteCap += 1 }
        }
    }

    private func oldest(excluding id: UInt32) -> UInt32? {
        order.first { entry in entry.id != id && transfers[entry.id]?.serial == entry.serial }?.id
    }

    /// Removes a transfer and its bytes; compacts the order queue once mostly stale.
    @discardableResult
    private mutating func remove(_ id: UInt32) -> Transfer? {
        guard let transfer = transfers.removeValue(forKey: id) else { return nil }
        bufferedBytes -= transfer.charged
        if order.count > 2 * transfers.count + 32 {
            order.keep { entry in transfers[entry.id]?.serial == entry.serial }
        }
        return transfer
    }
}
