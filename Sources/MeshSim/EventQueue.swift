/// A min-heap of timed items; items due at the same time come out in insertion order.
struct EventQueue<Item> {
    private struct Entry {
        let time: Duration
        let sequence: UInt64
        let item: Item

        func precedes(_ other: Entry) -> Bool { (time, sequence) < (other.time, other.sequence) }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var nextTime: Duration? { heap.first?.time }

    mutating func push(_ item: Item, at time: Duration) {
        heap.append(Entry(time: time, sequence: nextSequence, item: item))
        nextSequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (time: Duration, item: Item)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = parent * 2 + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return (top.time, top.item)
    }
}
