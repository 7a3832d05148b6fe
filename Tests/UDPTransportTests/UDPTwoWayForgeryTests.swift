import MeshLink
import MeshProtocol
import Testing
@testable import UDPTransport

/// Closes forged to both ends of a link at once (issue 19 item 7): each end challenges the other
/// while answering the other's challenges; the link holds and each end challenges once per second.
@Suite("UDP closes forged both ways")
struct UDPTwoWayForgeryTests {
    /// Which ends the forger sends closes to.
    enum Direction: String, CaseIterable { case both, toA, toB }

    /// A close as the peer of `link` would send it (address, nonce, role and instance all observed).
    static func close(imitating link: UDPLinkTable.Link) -> [UInt8] {
        UDPDatagram(type: .close, fromCentral: link.role == .peripheral, instance: link.peerInstance,
                    linkNonce: link.nonce).encoded()
    }

    /// Runs `seconds` of forged closes, `burst` per `period` (issue 19: 40 per 50 ms for 8 s), to the
    /// ends `direction` names, delivering what is in flight in an order drawn from `seed`, ticking
    /// both tables every 10 ms. `during` runs once per step with the time, for a real event mid-flood.
    static func flood(_ direction: Direction, seconds: Int = 8, burst: Int = 40, period: Duration = .milliseconds(50),
                      seed: UInt64, during: (inout TablePair, Duration) -> Void = { _, _ in },
                      lost: (_ to: UDPEndpoint) -> Bool = { _ in false }) throws -> TablePair {
        var (pair, _) = try UDPChallengeTests.linkedPair()
        var random = SplitMix64(seed: seed)
        let linkA = try #require(pair.a.links.values.first)
        let linkB = try #require(pair.b.links.values.first)
        let step = period / burst
        var now = Duration.zero
        var nextTick = Duration.zero
        while now < .seconds(seconds) {
            now += step
            if direction != .toA, pair.b.links[linkB.id] != nil {
                pair.take(pair.b.receive(close(imitating: linkB), from: pair.addressA, now: now), from: pair.addressB)
            }
            if direction != .toB, pair.a.links[linkA.id] != nil {
                pair.take(pair.a.receive(close(imitating: linkA), from: pair.addressB, now: now), from: pair.addressA)
            }
            during(&pair, now)
            // Deliver a random part of what is in flight, in random order: challenges and answers cross.
            pair.wire.shuffle(using: &random)
            let count = Int.random(in: 0...pair.wire.count, using: &random)
            let due = Array(pair.wire.prefix(count))
            pair.wire.removeFirst(count)
            for (datagram, from, to) in due where !lost(to) {
                let table = to == pair.addressA ? \TablePair.a : \TablePair.b
                pair.take(pair[keyPath: table].receive(datagram.encoded(), from: from, now: now), from: to)
            }
            if now >= nextTick {
                pair.tick(now)
                nextTick += .milliseconds(10)
            }
        }
        pair.deliver(now)
        return pair
    }

    @Test("forged closes, to one end or both at once, never drop the link; one challenge a second",
          arguments: Direction.allCases, [1, 2, 3] as [UInt64])
    func floodKeepsTheLink(direction: Direction, seed: UInt64) throws {
        let pair = try Self.flood(direction, seed: seed)
        #expect(pair.eventsA.compactMap(\.downLink).isEmpty && pair.eventsB.compactMap(\.downLink).isEmpty,
                "A: \(pair.eventsA.compactMap(\.downLink)) B: \(pair.eventsB.compactMap(\.downLink))")
        #expect(pair.a.links.count == 1 && pair.b.links.count == 1)
        // One challenge per keepalive interval per link, answered or not: 8 s, at most 9 from each end.
        let sentByA = pair.a.counters.challengesSent
        let sentByB = pair.b.counters.challengesSent
        #expect(sentByA <= 9 && sentByB <= 9, "A sent \(sentByA), B sent \(sentByB)")
        #expect(sentByA >= (direction == .toB ? 0 : 8) && sentByB >= (direction == .toA ? 0 : 8))
        #expect(pair.a.counters.challengesAnswered == sentByB && pair.b.counters.challengesAnswered == sentByA)
        #expect(pair.a.counters.challengesConfirmed == 0 && pair.b.counters.challengesConfirmed == 0)
    }

    @Test("a real close during a two-way flood ends the link a keepalive interval later at most")
    func realCloseDuringTheFlood() throws {
        var closedAt: Duration?
        var goneAt: Duration?
        var linkB: LinkID?
        let pair = try Self.flood(.both, seconds: 4, seed: 7) { pair, now in
            if closedAt != nil, goneAt == nil, let linkB, pair.b.links[linkB] == nil { goneAt = now }
            guard closedAt == nil, now >= .milliseconds(1500), let link = pair.a.links.keys.first else { return }
            closedAt = now
            linkB = pair.b.links.keys.first
            pair.take(pair.a.removeLink(link, reason: "disconnected locally", notifyPeer: true, now: now), from: pair.addressA)
        }
        let down = try #require(pair.eventsB.compactMap(\.downLink).first)
        #expect(down.0 == linkB && down.1 == "closed by peer" && pair.b.counters.challengesConfirmed == 1)
        let delay = try #require(goneAt) - (try #require(closedAt))
        #expect(delay <= .milliseconds(1020), "\(delay)")
    }

    @Test("a stopping end's proof ends the link at once while a forger's closes hold the peer's challenges",
          arguments: [7, 8, 9] as [UInt64])
    func stopDuringTheFlood(seed: UInt64) throws {
        var stoppedAt: Duration?
        var goneAt: Duration?
        var linkA: LinkID?
        let addressB = try TablePair().addressB
        // B stops at 1.5 s and its process is gone: nothing reaches it afterwards.
        let pair = try Self.flood(.both, seconds: 4, seed: seed, during: { pair, now in
            if stoppedAt != nil, goneAt == nil, let linkA, pair.a.links[linkA] == nil { goneAt = now }
            guard stoppedAt == nil, now >= .milliseconds(1500) else { return }
            stoppedAt = now
            linkA = pair.a.links.keys.first
            for (datagram, to) in pair.b.closeAll() { pair.wire.append((datagram, pair.addressB, to)) }
        }, lost: { to in stoppedAt != nil && to == addressB })
        let down = try #require(pair.eventsA.compactMap(\.downLink).first)
        #expect(down.0 == linkA && down.1 == "closed by peer")
        let delay = try #require(goneAt) - (try #require(stoppedAt))
        #expect(delay <= .milliseconds(10), "\(delay)")
    }

    @Test func aStillHereEchoingAnAnsweredChallengeIsIgnored() throws {
        var (pair, link) = try UDPChallengeTests.linkedPair()
        UDPChallengeTests.inject(try UDPChallengeTests.forged(.close, like: pair), into: &pair, at: .milliseconds(100))
        let value = try #require(pair.b.links[link]?.lastChallengeValue)
        let nonce = try #require(pair.b.links[link]).nonce
        let echo = { (verdict: UDPAnswerVerdict) in
            UDPDatagram(type: .answer, fromCentral: true, instance: 1, linkNonce: nonce,
                        body: UDPDatagram.answerBody(value, verdict: verdict)).encoded()
        }
        _ = pair.b.receive(echo(.stillHere), from: pair.addressA, now: .milliseconds(200))
        #expect(pair.b.counters.challengeMismatches == 1 && pair.b.links[link] != nil)
        _ = pair.b.receive(echo(.gone), from: pair.addressB, now: .milliseconds(200))
        #expect(pair.b.counters.challengeMismatches == 2 && pair.b.links[link] != nil)
        let actions = pair.b.receive(echo(.gone), from: pair.addressA, now: .milliseconds(300))
        #expect(actions.contains { if case .emit(.linkDown(link, "closed by peer")) = $0 { true } else { false } })
    }

    @Test("a stop sends the proof, then the close, per link; none where the peer never challenged")
    func stopProofBytes() throws {
        var (pair, link) = try UDPChallengeTests.linkedPair()
        var fresh = pair
        UDPChallengeTests.inject(try UDPChallengeTests.forged(.close, like: pair), into: &pair, at: .milliseconds(100))
        let value = try #require(pair.b.links[link]?.lastChallengeValue)
        let sent = pair.a.closeAll()
        #expect(sent.map(\.0.type) == [.answer, .close] && sent.allSatisfy { $0.1 == pair.addressB })
        #expect(sent.first?.0.challengeValue == value && sent.first?.0.verdict == .gone && sent.first?.0.fromCentral == true)
        #expect(fresh.a.closeAll().map(\.0.type) == [.close])
    }

    @Test func aTriggerHeldByTheRateLimitIsChallengedWhenTheIntervalHasPassed() throws {
        var (pair, link) = try UDPChallengeTests.linkedPair()
        let close = try UDPChallengeTests.forged(.close, like: pair)
        UDPChallengeTests.inject(close, into: &pair, at: .milliseconds(100))
        UDPChallengeTests.inject(close, into: &pair, at: .milliseconds(200))
        #expect(pair.b.counters.challengesSent == 1 && pair.b.counters.challengesSuppressed == 1)
        // Nothing is due before the interval has passed; then the held trigger goes out once.
        let early = pair.b.tick(now: .milliseconds(1099))
        #expect(!early.contains { if case .send(let datagram, _) = $0 { datagram.type == .challenge } else { false } })
        pair.take(pair.b.tick(now: .milliseconds(1100)), from: pair.addressB)
        pair.deliver(.milliseconds(1100))
        #expect(pair.b.counters.challengesSent == 2 && pair.b.counters.challengesKept == 2)
        pair.take(pair.b.tick(now: .milliseconds(2200)), from: pair.addressB)
        #expect(pair.b.counters.challengesSent == 2)
        #expect(pair.b.links[link] != nil)
    }
}
