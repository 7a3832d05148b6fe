import MeshProtocol
import Testing

@testable import MeshNode

/// The link acknowledgement and credit as a value (PROTOCOL.md D12): no engine, no clock.
@Suite("Link delivery: acknowledgements and credit")
struct LinkDeliveryTests {
    private static let origin = try! NodeID(bytes: [UInt8](repeating: 0xa1, count: 16))

    private static func envelope(_ index: Int, kind: MessageKind = .message) -> Envelope {
        var id = [UInt8](repeating: 0, count: 16)
        id[15] = UInt8(index & 0xff)
        id[14] = UInt8(index >> 8)
        id[0] = 1
        return Envelope(kind: kind, messageID: try! MessageID(bytes: id), origin: origin, route: [origin], timestamp: 0)
    }

    /// A delivery whose peer announced itself with `credit`, with envelopes 1…`sent` sent as counters 1…`sent` at 0 s.
    private static func announced(credit: UInt16 = 32, sent: Int = 0, limits: LinkDeliveryLimits = LinkDeliveryLimits()) -> LinkDelivery {
        var delivery = LinkDelivery(limits: limits)
        _ = delivery.receive(LinkAcknowledgementBody(highest: 0, received: 0, credit: credit), now: .zero)
        for index in 0..<sent where delivery.decide(envelope(index + 1)) == .send {
            delivery.sent(envelope(index + 1), counter: UInt64(index + 1), attempt: 1, now: .zero)
        }
        return delivery
    }

    @Test("Before the peer announced itself nothing is tracked or held back: an older node is served as before")
    func silentPeer() {
        var delivery = LinkDelivery(limits: LinkDeliveryLimits())
        for index in 1...500 {
            #expect(delivery.decide(Self.envelope(index)) == .send)
            delivery.sent(Self.envelope(index), counter: UInt64(index), attempt: 1, now: .zero)
        }
        #expect(delivery.outstanding.isEmpty)
        #expect(delivery.tick(now: .seconds(60)) == LinkDelivery.Release())
        #expect(!delivery.accepted() && !delivery.acknowledgementDue, "no acknowledgement for a peer that never sent one")
        #expect(delivery.unconfirmed().isEmpty)
    }

    @Test("The credit bounds what is unacknowledged; the rest waits in order and goes as acknowledgements free credit",
          arguments: [1, 4, 32])
    func credit(_ credit: Int) {
        var delivery = Self.announced(credit: UInt16(credit))
        var sent: [Int] = []
        for index in 1...(credit + 5) {
            switch delivery.decide(Self.envelope(index)) {
            case .send:
                delivery.sent(Self.envelope(index), counter: UInt64(sent.count + 1), attempt: 1, now: .zero)
                sent.append(index)
            case .wait: break
            case .refuse: Issue.record("refused \(index)")
            }
        }
        #expect(sent == Array(1...credit))
        #expect(delivery.waitingCount == 5)
        // The first two are acknowledged: two waiting go, oldest first.
        let release = delivery.receive(
            LinkAcknowledgementBody(highest: UInt64(min(2, credit)), received: credit >= 2 ? 1 : 0, credit: UInt16(credit)),
            now: .seconds(1))
        let freed = min(2, credit)
        #expect(release.acknowledged == freed)
        #expect(release.send == (credit + 1...credit + freed).map { Self.envelope($0) })
        #expect(release.resend.isEmpty)
        #expect(delivery.waitingCount == 5 - freed)
    }

    @Test("Profiles and heartbeats are never held back or tracked")
    func untrackedKinds() {
        var delivery = Self.announced(credit: 1, sent: 1)
        #expect(delivery.decide(Self.envelope(2)) == .wait)
        for kind in [MessageKind.profile, .heartbeat] {
            #expect(delivery.decide(Self.envelope(3, kind: kind)) == .send)
            delivery.sent(Self.envelope(3, kind: kind), counter: 2, attempt: 1, now: .zero)
        }
        #expect(delivery.outstanding.count == 1)
    }

    @Test("A full waiting line refuses, and says so")
    func waitingLimit() {
        var limits = LinkDeliveryLimits()
        limits.waitingLimit = 3
        var delivery = Self.announced(credit: 1, sent: 1, limits: limits)
        #expect((2...4).map { delivery.decide(Self.envelope($0)) } == [.wait, .wait, .wait])
        #expect(delivery.decide(Self.envelope(5)) == .refuse)
    }

    @Test("A gap below the highest acknowledged counter is a loss: sent again at once, as the next attempt")
    func gapIsLoss() {
        var delivery = Self.announced(sent: 5)
        // 1, 2, 4 and 5 arrived; 3 did not.
        let release = delivery.receive(LinkAcknowledgementBody(highest: 5, received: 0b1101, credit: 32), now: .seconds(1))
        #expect(release.acknowledged == 4)
        #expect(release.resend == [LinkDelivery.Resend(envelope: Self.envelope(3), attempt: 2)])
        #expect(delivery.outstanding.isEmpty)
    }

    @Test("What is above the highest counter is still in flight, and times out after the acknowledgement timeout")
    func timeout() {
        var delivery = Self.announced(sent: 3)
        let first = delivery.receive(LinkAcknowledgementBody(highest: 1, received: 0, credit: 32), now: .seconds(1))
        #expect(first.acknowledged == 1 && first.resend.isEmpty)
        #expect(delivery.tick(now: .milliseconds(2_999)) == LinkDelivery.Release())
        let release = delivery.tick(now: .seconds(3))
        #expect(release.timedOut == 2)
        #expect(release.resend.map(\.envelope) == [Self.envelope(2), Self.envelope(3)])
    }

    @Test("After every attempt went unacknowledged an envelope is given up on the link", arguments: [1, 2, 4])
    func givesUp(_ attempts: Int) {
        var limits = LinkDeliveryLimits()
        limits.attempts = attempts
        var delivery = Self.announced(limits: limits)
        var now = Duration.zero
        var counter: UInt64 = 0
        var attempt = 1
        var gaveUp: [Envelope] = []
        #expect(delivery.decide(Self.envelope(1)) == .send)
        while gaveUp.isEmpty, attempt <= 10 {
            counter += 1
            delivery.sent(Self.envelope(1), counter: counter, attempt: attempt, now: now)
            now += delivery.timeout(forAttempt: attempt)
            let release = delivery.tick(now: now)
            gaveUp = release.gaveUp
            if let resend = release.resend.first { attempt = resend.attempt }
        }
        #expect(gaveUp == [Self.envelope(1)])
        #expect(counter == UInt64(attempts), "sent \(attempts) times in all")
    }

    @Test("New keys: what the old keys carried unacknowledged is returned to go again")
    func rekey() {
        var delivery = Self.announced(sent: 3)
        _ = delivery.receive(LinkAcknowledgementBody(highest: 1, received: 0, credit: 32), now: .zero)
        let resend = delivery.rekeyed()
        #expect(resend.map(\.envelope) == [Self.envelope(2), Self.envelope(3)])
        #expect(delivery.outstanding.isEmpty)
    }

    @Test("When the link goes, everything unacknowledged comes back oldest first: sent, then waiting")
    func unconfirmed() {
        var delivery = Self.announced(credit: 2, sent: 2)
        #expect(delivery.decide(Self.envelope(3)) == .wait)
        // 1 acknowledged frees one credit: 3 goes; then 4 waits.
        let release = delivery.receive(LinkAcknowledgementBody(highest: 1, received: 0, credit: 2), now: .zero)
        #expect(release.send == [Self.envelope(3)])
        delivery.sent(Self.envelope(3), counter: 3, attempt: 1, now: .zero)
        #expect(delivery.decide(Self.envelope(4)) == .wait)
        #expect(delivery.unconfirmed() == [Self.envelope(2), Self.envelope(3), Self.envelope(4)])
        #expect(delivery.outstanding.isEmpty && delivery.waitingCount == 0)
    }

    @Test("The receiver acknowledges every `acknowledgeEvery` packets at once, the rest at the next tick")
    func receiverSide() {
        var delivery = Self.announced()
        let due = (1...17).map { _ -> Bool in
            let now = delivery.accepted()
            if now { delivery.acknowledgementSent() }
            return now
        }
        #expect(due.enumerated().filter(\.element).map(\.offset) == [7, 15])
        #expect(delivery.acknowledgementDue)
        delivery.acknowledgementSent()
        #expect(!delivery.acknowledgementDue)
    }

    @Test("A credit of 0 pauses the sender until a later acknowledgement grants more")
    func zeroCredit() {
        var delivery = Self.announced(credit: 0)
        #expect(delivery.decide(Self.envelope(1)) == .wait)
        let release = delivery.receive(LinkAcknowledgementBody(highest: 0, received: 0, credit: 1), now: .zero)
        #expect(release.send == [Self.envelope(1)])
    }

    @Test("A credit above the cap counts as the cap")
    func creditCap() {
        let delivery = Self.announced(credit: .max)
        #expect(delivery.peerCredit == LinkDeliveryLimits.maxOutstanding)
    }

    @Test("Each send waits twice as long as the one before for its acknowledgement, at most 30 s",
          arguments: [(1, 3), (2, 6), (3, 12), (4, 24), (5, 30), (8, 30)])
    func backoff(attempt: Int, seconds: Int64) {
        let delivery = Self.announced()
        #expect(delivery.timeout(forAttempt: attempt) == .seconds(seconds))
    }

    @Test("A second send is not repeated at the first send's timeout")
    func resendWaitsLonger() {
        var delivery = Self.announced()
        #expect(delivery.decide(Self.envelope(1)) == .send)
        delivery.sent(Self.envelope(1), counter: 1, attempt: 2, now: .zero)
        #expect(delivery.tick(now: .seconds(3)).resend.isEmpty)
        #expect(delivery.tick(now: .seconds(6)).resend == [LinkDelivery.Resend(envelope: Self.envelope(1), attempt: 3)])
    }
}
