import Flooding
import MeshLink
import MeshNode
import Testing
@testable import MeshService

@Suite("Counter groups for relayctl stats")
struct CounterDictionaryTests {
    @Test("Names become snake case; a run of capitals is one word",
          arguments: [("droppedTTL", "dropped_ttl"), ("linksUp", "links_up"), ("received", "received"),
                      ("evictedLinkByteCap", "evicted_link_byte_cap")])
    func snakeCase(name: String, expected: String) {
        #expect(CounterDictionary.snakeCase(name) == expected)
    }

    @Test("Every counter of a struct is listed with its value")
    func values() {
        var counters = KindCounters()
        counters.received = 7
        counters.droppedTTL = 2
        let named = CounterDictionary.make(from: counters)
        #expect(named["received"] == 7)
        #expect(named["dropped_ttl"] == 2)
        #expect(named.count == 14)
        var links = LinkCounters()
        links.handshakeTimeouts = 3
        #expect(CounterDictionary.make(from: links)["handshake_timeouts"] == 3)
    }
}
