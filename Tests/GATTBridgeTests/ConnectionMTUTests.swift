import Testing
@testable import GATTBridge

/// Each LE connection starts at ATT MTU 23 and is raised only by evidence from that connection.
@Suite struct ConnectionMTUTests {
    let dev = "/org/bluez/hci0/dev_AA_AA_AA_AA_AA_AA"

    @Test(arguments: [nil, 23, 185, 517])
    func freshConnectionStartsAt23WhateverTheMirrorSays(cached: Int?) {
        var book = ConnectionMTU()
        let r1 = book.connected(dev)
        #expect(r1)
        #expect(book.mtu(dev, cached: cached) == 23)
    }

    @Test(arguments: [(185, 185), (517, 517), (600, 517), (10, 23)])
    func anExchangeOnThisConnectionRaisesIt(seen: Int, expected: Int) {
        var book = ConnectionMTU()
        book.connected(dev)
        let r2 = book.exchanged(dev, mtu: seen)
        #expect(r2 == (expected == 23 ? nil : expected))
        #expect(book.mtu(dev, cached: 23) == expected)
    }

    @Test func theSameValueAgainIsNoChange() {
        var book = ConnectionMTU()
        book.connected(dev)
        let r3 = book.exchanged(dev, mtu: 517)
        #expect(r3 == 517)
        let r4 = book.exchanged(dev, mtu: 517)
        #expect(r4 == nil)
    }

    @Test func aStaleCachedMTUFromThePreviousConnectionIsIgnored() {
        var book = ConnectionMTU()
        book.connected(dev)
        let r5 = book.exchanged(dev, mtu: 517)
        #expect(r5 == 517)
        book.disconnected(dev)
        // An evidence-free value between connections is not taken as the next connection's.
        let r6 = book.exchanged(dev, mtu: 517)
        #expect(r6 == nil)
        book.connected(dev)
        #expect(book.mtu(dev, cached: 517) == 23)
    }

    @Test func reconnectResetsEvenWithoutADisconnectSeen() {
        var book = ConnectionMTU()
        book.connected(dev)
        _ = book.exchanged(dev, mtu: 517)
        book.connected(dev)
        #expect(book.mtu(dev, cached: 517) == 23)
        let r7 = book.exchanged(dev, mtu: 247)
        #expect(r7 == 247)
        #expect(book.mtu(dev, cached: 517) == 247)
    }

    @Test func aConnectionOlderThanUsUsesTheMirror() {
        let book = ConnectionMTU()
        #expect(!book.tracks(dev))
        #expect(book.mtu(dev, cached: 517) == 517)
        #expect(book.mtu(dev, cached: nil) == 23)
    }

    @Test func theBookIsBounded() {
        var book = ConnectionMTU(capacity: 2)
        let r8 = book.connected("a")
        #expect(r8)
        let r9 = book.connected("b")
        #expect(r9)
        let r10 = book.connected("c")
        #expect(!r10)
        let r11 = book.connected("a")
        #expect(r11)
        book.disconnected("b")
        let r12 = book.connected("c")
        #expect(r12)
        #expect(book.connections.count == 2)
    }
}
