import MeshLink
import Testing
@testable import MeshService

private func frame(_ link: UInt64, _ byte: UInt8) -> TransportEvent { .frameReceived(LinkID(link), [byte]) }

/// The link and first byte of a frame event, for comparing orders.
private func describe(_ event: TransportEvent?) -> String {
    switch event {
    case .frameReceived(let link, let bytes)?: "\(link.number):\(bytes.first ?? 0)"
    case .linkUp(let info)?: "up \(info.id.number)"
    case .linkDown(let link, _)?: "down \(link.number)"
    default: "other"
    }
}

@Suite("The engine's inbox: bounded, fair by link")
struct FairInboxTests {
    @Test("Links are served in turn, each in its own order")
    func roundRobin() {
        var inbox = FairInbox()
        for byte: UInt8 in 1...3 { inbox.push(frame(1, byte)) }
        inbox.push(frame(2, 9))
        var order: [String] = []
        while let event = inbox.next() { order.append(describe(event)) }
        #expect(order == ["1:1", "2:9", "1:2", "1:3"])
        #expect(inbox.isEmpty && inbox.waitingFrames == 0 && inbox.waitingEvents == 0)
    }

    @Test("A flooding link is held to its share; another link still gets in", arguments: [1, 4, 16])
    func perLinkShare(share: Int) {
        var inbox = FairInbox(limits: .init(framesPerLink: share, totalFrames: 1000))
        for byte in 0..<(share + 5) { inbox.push(frame(1, UInt8(byte))) }
        let otherLinkIn = inbox.push(frame(2, 0))
        #expect(otherLinkIn)
        #expect(inbox.counters.shedPerLink == 5)
        #expect(inbox.waitingFrames == share + 1)
        let first = describe(inbox.next())
        let second = describe(inbox.next())
        #expect(first == "1:0" && second == "2:0")
    }

    @Test("The total bound holds across links, and link events are never shed")
    func totalBound() {
        var inbox = FairInbox(limits: .init(framesPerLink: 10, totalFrames: 3))
        for link: UInt64 in 1...5 { inbox.push(frame(link, 0)) }
        #expect(inbox.counters.shedTotal == 2 && inbox.waitingFrames == 3)
        let downIn = inbox.push(.linkDown(LinkID(5), reason: "gone"))
        let upIn = inbox.push(.linkUp(LinkInfo(id: LinkID(6), role: .central, remoteAddress: "x", mtu: 100)))
        #expect(downIn && upIn)
        #expect(inbox.waitingEvents == 5, "three frames and two link events wait")
        var order: [String] = []
        while let event = inbox.next() { order.append(describe(event)) }
        #expect(order == ["1:0", "2:0", "3:0", "down 5", "up 6"])
    }

    @Test("A link's events keep their order: up, frames, down")
    func lifeOrder() {
        var inbox = FairInbox()
        inbox.push(.linkUp(LinkInfo(id: LinkID(1), role: .peripheral, remoteAddress: "x", mtu: 100)))
        inbox.push(frame(1, 1))
        inbox.push(.linkDown(LinkID(1), reason: "gone"))
        var order: [String] = []
        while let event = inbox.next() { order.append(describe(event)) }
        #expect(order == ["up 1", "1:1", "down 1"])
    }
}
