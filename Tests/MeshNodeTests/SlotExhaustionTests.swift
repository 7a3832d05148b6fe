import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import Testing

/// Issue 11, point 3: an outsider keeps opening links that never key, refilling every slot the
/// node frees, while a neighbour C comes back after a 6 s outage. The transport here has 16 slots
/// and refuses links when full (a BLE controller does); the engine's admission must keep C in.
final class SlotAttack {
    let b: MeshEngine
    let c: MeshEngine
    let slots: Int
    var now: Duration = .zero
    /// B's links by ID, with the address the transport reported.
    var open: [LinkID: String] = [:]
    var refusedForC = 0
    private var nextLink: UInt64 = 0
    private var cLinkAtB: LinkID?
    private var cLinkAtC: LinkID?
    private var inFlight: [(toB: Bool, frame: [UInt8])] = []
    private var attackers = 0

    init(configuration: EngineConfiguration, slots: Int) throws {
        self.slots = slots
        b = MeshEngine(identity: try NodeIdentity.generate(), configuration: configuration, random: SplitMix64(seed: 1))
        c = MeshEngine(identity: try NodeIdentity.generate(), configuration: configuration, random: SplitMix64(seed: 2))
    }

    /// The phase of C's link at B, if it has one.
    var cPhase: LinkPhase? { cLinkAtB.flatMap { id in b.linkSnapshots().first { $0.info.id == id }?.phase } }

    private func newID() -> LinkID {
        nextLink += 1
        return LinkID(nextLink)
    }

    /// Opens a link at B from `address` if a slot is free; returns its ID.
    private func openAtB(_ address: String, id: LinkID? = nil) -> LinkID? {
        guard open.count < slots else { return nil }
        let id = id ?? newID()
        open[id] = address
        performB(b.handle(.linkUp(LinkInfo(id: id, role: .peripheral, remoteAddress: address, mtu: 185)), now: now))
        return id
    }

    private func performB(_ actions: [EngineAction]) {
        for action in actions {
            switch action {
            case .send(let frame, let link) where link == cLinkAtB: inFlight.append((false, frame))
            case .disconnect(let link):
                open[link] = nil
                if link == cLinkAtB { dropC() }
                performB(b.handle(.linkDown(link, reason: "disconnected"), now: now))
            default: break
            }
        }
    }

    private func performC(_ actions: [EngineAction]) {
        for action in actions {
            if case .send(let frame, let link) = action, link == cLinkAtC { inFlight.append((true, frame)) }
        }
    }

    private func drain() {
        while !inFlight.isEmpty {
            let (toB, frame) = inFlight.removeFirst()
            if toB, let link = cLinkAtB { performB(b.handle(.frameReceived(link, frame), now: now)) }
            if !toB, let link = cLinkAtC { performC(c.handle(.frameReceived(link, frame), now: now)) }
        }
    }

    /// C dials B; refused when every slot is taken.
    func connectC() {
        guard cLinkAtB == nil else { return }
        guard open.count < slots else {
            refusedForC += 1
            return
        }
        let atB = newID()
        let atC = newID()
        cLinkAtB = atB
        cLinkAtC = atC
        performC(c.handle(.linkUp(LinkInfo(id: atC, role: .central, remoteAddress: "udp:b", mtu: 185)), now: now))
        _ = openAtB("udp:c", id: atB)
        drain()
    }

    /// C's link drops (an outage): both ends see it go.
    func dropC() {
        guard let atB = cLinkAtB, let atC = cLinkAtC else { return }
        cLinkAtB = nil
        cLinkAtC = nil
        inFlight.removeAll()
        if open.removeValue(forKey: atB) != nil { performB(b.handle(.linkDown(atB, reason: "outage"), now: now)) }
        performC(c.handle(.linkDown(atC, reason: "outage"), now: now))
    }

    /// The attacker refills free slots with links that never send a frame, up to 20 per call.
    func attack() {
        for _ in 0..<20 where open.count < slots {
            attackers += 1
            _ = openAtB("udp:evil-\(attackers)")
        }
    }

    /// Moves the clock on by `step` and runs both engines' timers.
    func advance(_ step: Duration) {
        now += step
        performB(b.tick(now: now))
        performC(c.tick(now: now))
        drain()
    }
}

@Suite("Slot exhaustion by links that never key")
struct SlotExhaustionTests {
    /// Limits that admit everything for 300 s: the engine as it was before admission.
    static let unlimited = LinkAdmissionLimits(maxUnkeyedLinks: 1024, maxUnkeyedPerAddress: 1024, keyDeadline: .seconds(300))

    @Test("C returns during a 30 s attack that refills every freed slot", arguments: [true, false])
    func returningNeighbourGetsItsLinkBack(admission: Bool) throws {
        var configuration = EngineConfiguration()
        // Half the 16 slots, as the daemon sets it.
        configuration.admission.maxUnkeyedLinks = 8
        if !admission { configuration.admission = Self.unlimited }
        let attack = try SlotAttack(configuration: configuration, slots: 16)
        attack.connectC()
        #expect(attack.cPhase == .ready)
        attack.advance(.seconds(1))
        attack.dropC()
        var keyedAt: Duration?
        var cLost = false
        // 30 s of attack, in 100 ms steps; C retries once a second from 6 s after its outage.
        for step in 1...300 {
            attack.advance(.milliseconds(100))
            attack.attack()
            if step >= 60, step % 10 == 0 { attack.connectC() }
            if let phase = attack.cPhase {
                if phase == .ready, keyedAt == nil { keyedAt = attack.now }
            } else if keyedAt != nil {
                cLost = true
            }
        }
        if admission {
            let returned = try #require(keyedAt, "C never got its link back")
            // C's first retry is at 1 s + 6 s; it is ready at once (no latency here) and within 1 s at the latest.
            #expect(returned <= .seconds(8))
            #expect(!cLost && attack.refusedForC == 0)
            #expect(attack.b.admissionCounters.evictedOldest > 100)
            #expect(attack.b.linkSnapshots().filter { $0.phase == .keyExchange }.count <= 8)
        } else {
            #expect(keyedAt == nil, "without admission the attack locks C out (as reported in issue 11)")
            #expect(attack.refusedForC >= 20)
        }
    }
}
