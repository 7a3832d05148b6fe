import MQTTBridge
import Testing

@Suite struct UplinkQueueTests {
    static func item(_ index: Int) -> UplinkItem { UplinkItem(topic: "t/\(index)", payload: [UInt8(index)], qos: 1) }

    @Test(arguments: [1, 3, 100])
    func dropsTheOldestFirstAndCountsIt(capacity: Int) {
        var queue = UplinkQueue(capacity: capacity)
        for index in 0..<(capacity + 5) { queue.push(Self.item(index)) }
        #expect(queue.count == capacity)
        #expect(queue.droppedOldest == 5)
        var popped: [UplinkItem] = []
        while let item = queue.pop() { popped.append(item) }
        #expect(popped == (5..<(capacity + 5)).map(Self.item))
        #expect(queue.isEmpty)
    }

    @Test func keepsOrderAcrossInterleavedPushAndPop() {
        var queue = UplinkQueue(capacity: 4)
        var expected: [UplinkItem] = []
        var got: [UplinkItem] = []
        for index in 0..<1000 {
            queue.push(Self.item(index % 256))
            expected.append(Self.item(index % 256))
            if index % 3 == 0, let item = queue.pop() { got.append(item) }
        }
        while let item = queue.pop() { got.append(item) }
        // Whatever was dropped was the oldest waiting: what came out is in order and ends with the newest.
        #expect(got.count + Int(queue.droppedOldest) == expected.count)
        #expect(got.suffix(4) == expected.suffix(4))
    }
}
