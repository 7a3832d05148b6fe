import MeshLink
import Testing
@testable import UDPTransport

/// Forged closes and connects: a link goes down only when its recorded address confirms it.
@Suite("UDP link challenges")
struct UDPChallengeTests {
    /// A linked pair (A central, B peripheral) and B's link ID.
    static func linkedPair() throws -> (TablePair, LinkID) {
        var pair = try TablePair()
        pair.tick(.zero)
        pair.deliver(.zero)
        return (pair, try #require(pair.eventsB.first?.upInfo).id)
    }

    /// A datagram as A would send it on the link, forged by someone who knows A's address,
    /// instance and nonce (all of them visible to an observer).
    static func forged(_ type: UDPDatagramType, like pair: TablePair, instance: UInt64? = nil, nonce: UInt64? = nil) throws -> UDPDatagram {
        let link = try #require(pair.b.links.values.first)
        let body = type == .connect ? UDPDatagram.mtuBody(185) : []
        return UDPDatagram(type: type, fromCentral: true, instance: instance ?? link.peerInstance,
                           linkNonce: nonce ?? link.nonce, body: body)
    }

    /// Delivers a forged datagram to B "from A"; what B sends back goes to A (the forger never sees it).
    static func inject(_ datagram: UDPDatagram, into pair: inout TablePair, at now: Duration) {
        pair.take(pair.b.receive(datagram.encoded(), from: pair.addressA, now: now), from: pair.addressB)
        pair.deliver(now)
    }

    enum Forgery: String, CaseIterable { case close, connectWithNewNonce, connectWithNewInstance }

    @Test("a forged datagram from A's address does not drop the link; A answers still here", arguments: Forgery.allCases)
    func forgeryKeepsTheLink(_ forgery: Forgery) throws {
        var (pair, link) = try Self.linkedPair()
        let datagram: UDPDatagram = switch forgery {
        case .close: try Self.forged(.close, like: pair)
        case .connectWithNewNonce: try Self.forged(.connect, like: pair, nonce: 0xdead_beef)
        case .connectWithNewInstance: try Self.forged(.connect, like: pair, instance: 0xbad, nonce: 0xdead_beef)
        }
        Self.inject(datagram, into: &pair, at: .milliseconds(100))
        #expect(!pair.eventsB.contains { $0.downLink?.0 == link })
        #expect(pair.b.links[link] != nil && pair.b.counters.challengesKept == 1)
        // A forged connect also opened a link; A refused its accept, and A's close, confirmed, took it down.
        #expect(pair.b.links.count == 1)
        #expect(pair.eventsA.compactMap(\.downLink).isEmpty)
    }

    @Test func seventeenForgedClosesInEightSecondsNeverDropTheLink() throws {
        var (pair, link) = try Self.linkedPair()
        for step in 1...17 {
            let now = Duration.milliseconds(470 * step)
            Self.inject(try Self.forged(.close, like: pair), into: &pair, at: now)
            pair.tick(now)
            pair.deliver(now)
        }
        #expect(pair.b.links[link] != nil, "\(pair.eventsB.compactMap(\.downLink))")
        #expect(pair.eventsB.compactMap(\.downLink).isEmpty)
        #expect(pair.b.counters.challengesSent + pair.b.counters.challengesSuppressed == 17)
    }

    @Test func challengesAreRateLimitedPerLink() throws {
        var (pair, link) = try Self.linkedPair()
        let close = try Self.forged(.close, like: pair)
        // Nothing answers: the forger's closes arrive, the challenges go nowhere.
        for step in 0..<100 { _ = pair.b.receive(close.encoded(), from: pair.addressA, now: .milliseconds(step * 10)) }
        #expect(pair.b.counters.challengesSent == 1 && pair.b.counters.challengesSuppressed == 99)
        _ = pair.b.receive(close.encoded(), from: pair.addressA, now: .seconds(1))
        #expect(pair.b.counters.challengesSent == 2)
        #expect(pair.b.links[link] != nil)
    }

    @Test func aRealCloseDropsTheLinkAfterOneRoundTrip() throws {
        var (pair, link) = try Self.linkedPair()
        let linkA = try #require(pair.eventsA.first?.upInfo).id
        pair.take(pair.a.removeLink(linkA, reason: "disconnected locally", notifyPeer: true, now: .seconds(1)), from: pair.addressA)
        pair.deliver(.seconds(1))
        #expect(pair.eventsB.compactMap(\.downLink).first.map { $0 == (link, "closed by peer") } == true)
        #expect(pair.b.counters.challengesConfirmed == 1)
    }

    @Test func aRealRestartDropsTheOldLinkAndMakesANewOne() throws {
        var (pair, link) = try Self.linkedPair()
        var configuration = pair.a.configuration
        configuration.neighbours = [pair.addressB]
        pair.a = UDPLinkTable(configuration: configuration, seed: 77)
        pair.tick(.seconds(1))
        pair.deliver(.seconds(1))
        #expect(pair.eventsB.compactMap(\.downLink).first.map { $0 == (link, "peer restarted") } == true)
        #expect(pair.b.links.count == 1 && pair.b.links[link] == nil)
    }

    @Test func wrongOrUnsolicitedAnswersAreCountedAndIgnored() throws {
        var (pair, link) = try Self.linkedPair()
        let nonce = try #require(pair.b.links[link]).nonce
        let instance = try #require(pair.b.links[link]).peerInstance
        let guess = UDPDatagram(type: .answer, fromCentral: true, instance: instance, linkNonce: nonce,
                                body: UDPDatagram.answerBody(12345, verdict: .gone))
        _ = pair.b.receive(guess.encoded(), from: pair.addressA, now: .milliseconds(1))
        _ = pair.b.receive(try Self.forged(.close, like: pair).encoded(), from: pair.addressA, now: .milliseconds(2))
        _ = pair.b.receive(guess.encoded(), from: pair.addressA, now: .milliseconds(3))
        #expect(pair.b.links[link] != nil && pair.b.counters.challengeMismatches == 2)
    }

    @Test func anUnansweredChallengeLeavesTheLinkToItsTimeout() throws {
        var (pair, link) = try Self.linkedPair()
        _ = pair.b.receive(try Self.forged(.close, like: pair).encoded(), from: pair.addressA, now: .seconds(1))
        // A is gone for good: B only ticks, nothing arrives.
        for second in 1...3 { _ = pair.b.tick(now: .seconds(second)) }
        #expect(pair.b.links[link] != nil)
        let actions = pair.b.tick(now: .seconds(4))
        #expect(actions.contains { if case .emit(.linkDown(link, "silent for 4s")) = $0 { true } else { false } })
    }

    @Test("challenge and answer bytes as OPERATIONS.md gives them")
    func wireBytes() throws {
        let challenge = UDPDatagram(type: .challenge, fromCentral: false, instance: 0x0102_0304_0506_0708,
                                    linkNonce: 0x1112_1314_1516_1718, body: UDPDatagram.challengeBody(0xa1a2_a3a4_a5a6_a7a8))
        #expect(challenge.encoded() == [6, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
                                        0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8])
        let answer = UDPDatagram(type: .answer, fromCentral: true, instance: 9, linkNonce: 0x1112_1314_1516_1718,
                                 body: UDPDatagram.answerBody(0xa1a2_a3a4_a5a6_a7a8, verdict: .stillHere))
        #expect(answer.encoded().count == 27 && answer.encoded()[0] == 7 && answer.encoded()[1] == 1 && answer.encoded()[26] == 1)
        #expect(try UDPDatagram(decoding: answer.encoded()) == answer)
        #expect(try UDPDatagram(decoding: challenge.encoded()).challengeValue == 0xa1a2_a3a4_a5a6_a7a8)
        #expect(throws: UDPDatagramError.self) { try UDPDatagram(decoding: Array(challenge.encoded().dropLast())) }
        var badVerdict = answer.encoded()
        badVerdict[26] = 2
        #expect(throws: UDPDatagramError.self) { try UDPDatagram(decoding: badVerdict) }
    }
}
