/// One `Reassembler` per link plus the cap on bytes buffered across all of them.
///
/// Frames of one link only ever touch that link's transfers: when the total cap is reached,
/// the receiving link gives up its own oldest transfers, never another link's.
public struct LinkReassemblers<Link: Hashable & Sendable>: Sendable {
    /// The limits in force for every link.
    public let limits: FragmenterLimits
    private var links: [Link: Reassembler] = [:]
    private var retired = FragmenterCounters()
    /// Bytes buffered across all links (the sum of each link's `bufferedBytes`).
    public private(set) var bufferedBytes = 0

    /// Creates an empty set of reassemblers.
    public init(limits: FragmenterLimits = FragmenterLimits()) {
        self.limits = limits
    }

    /// The links that have a reassembler (every link a frame arrived on and that was not removed).
    public var linkKeys: [Link] { Array(links.keys) }

    /// Counters summed over current links and links already removed.
    public var counters: FragmenterCounters {
        links.values.reduce(retired) { sum, reassembler in sum + reassembler.counters }
    }

    /// One link's counters (zero for an unknown link).
    public func counters(on link: Link) -> FragmenterCounters {
        links[link]?.counters ?? FragmenterCounters()
    }

    /// Bytes buffered for one link.
    public func bufferedBytes(on link: Link) -> Int {
        links[link]?.bufferedBytes ?? 0
    }

    /// Unfinished transfers held for one link.
    public func transferCount(on link: Link) -> Int {
        links[link]?.transferCount ?? 0
    }

    /// Takes one frame received on `link` at `now` (time since a fixed origin, never decreasing).
    public mutating func receive(_ frame: [UInt8], on link: Link, now: Duration) throws(FragmentError) -> ReassemblyResult {
        var before = links[link]?.bufferedBytes ?? 0
        if bufferedBytes - before > limits.maxBufferedBytesTotal - limits.maxBufferedBytesPerLink {
            // The total cap may bind: free timed-out transfers everywhere before taking room.
            expire(now: now)
            before = links[link]?.bufferedBytes ?? 0
        }
        let allowance = limits.maxBufferedBytesTotal - (bufferedBytes - before)
        defer { bufferedBytes += (links[link]?.bufferedBytes ?? 0) - before }
        return try links[link, default: Reassembler(limits: limits)].receive(frame, now: now, allowance: allowance)
    }

    /// Frees timed-out transfers on every link.
    public mutating func expire(now: Duration) {
        var total = 0
        for index in links.values.indices {
            links.values[index].expire(now: now)
            total += links.values[index].bufferedBytes
        }
        bufferedBytes = total
    }

    /// Forgets a link (for example when it goes down); its unfinished transfers are dropped and
    /// its counters stay in `counters`.
    public mutating func removeLink(_ link: Link) {
        guard var reassembler = links.removeValue(forKey: link) else { return }
        bufferedBytes -= reassembler.bufferedBytes
        reassembler.removeAll()
        retired = retired + reassembler.counters
    }
}
