/// The envelopes waiting for the broker, oldest first, at most `capacity`: when full, the oldest
/// is dropped and counted, so an outage costs the oldest traffic and never memory.
public struct UplinkQueue: Sendable {
    /// The most items held.
    public let capacity: Int
    /// Items dropped because the queue was full.
    public private(set) var droppedOldest: UInt64 = 0
    private var items: [UplinkItem] = []
    private var head = 0

    /// Creates an empty queue of at least one item.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Items waiting now.
    public var count: Int { items.count - head }

    /// True when nothing waits.
    public var isEmpty: Bool { count == 0 }

    /// Appends `item`, dropping the oldest first when full.
    public mutating func push(_ item: UplinkItem) {
        if count >= capacity {
            head += 1
            droppedOldest += 1
        }
        items.append(item)
        compactIfNeeded()
    }

    /// The oldest item, still queued.
    public var first: UplinkItem? { isEmpty ? nil : items[head] }

    /// Removes and returns the oldest item.
    public mutating func pop() -> UplinkItem? {
        guard !isEmpty else { return nil }
        let item = items[head]
        head += 1
        compactIfNeeded()
        return item
    }

    private mutating func compactIfNeeded() {
        guard head > 0, head >= items.count / 2 else { return }
        items.removeFirst(head)
        head = 0
    }
}
