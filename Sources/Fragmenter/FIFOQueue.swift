/// A first-in first-out queue with O(1) amortized append and removal at the front.
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// How many elements are queued.
    var count: Int { storage.count - head }

    /// The element at the front.
    var first: Element? { head < storage.count ? storage[head] : nil }

    /// Adds an element at the back.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the element at the front.
    @discardableResult
    mutating func removeFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 64)
            head = 0
        } else if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// The first element, from the front, that satisfies `predicate`.
    func first(where predicate: (Element) -> Bool) -> Element? {
        var index = head
        while index < storage.count {
            if predicate(storage[index]) { return storage[index] }
            index += 1
        }
        return nil
    }

    /// Keeps only the elements that satisfy `predicate`, in order.
    mutating func keep(where predicate: (Element) -> Bool) {
        storage = storage[head...].filter(predicate)
        head = 0
    }

    /// Removes every element.
    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
