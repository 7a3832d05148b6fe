import MeshLink
import MeshNode
import MeshProtocol
import Testing

@Suite("Link admission")
struct LinkAdmissionTests {
    static let limits = LinkAdmissionLimits(maxUnkeyedLinks: 3, maxUnkeyedPerAddress: 2, keyDeadline: .seconds(6))

    /// An admission holding unkeyed links 1, 2, 3 from `addresses`, opened at 0, 1 and 2 s;
    /// `returning` addresses were keyed before.
    static func full(_ addresses: [String], returning: Set<String> = []) -> LinkAdmission {
        var admission = LinkAdmission(limits: limits)
        for (index, address) in returning.sorted().enumerated() {
            _ = admission.admit(LinkID(UInt64(100 + index)), address: address, now: .zero)
            admission.keyed(LinkID(UInt64(100 + index)), address: address, now: .zero)
        }
        for (index, address) in addresses.enumerated() {
            _ = admission.admit(LinkID(UInt64(index + 1)), address: address, now: .seconds(index))
        }
        return admission
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let held: [String]
        let returning: Set<String>
        let newcomer: String
        let expected: LinkAdmission.Decision
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "room left", held: ["x", "y"], returning: [], newcomer: "z", expected: .admit(closing: [])),
        Case(name: "full of strangers: the oldest goes", held: ["x", "y", "z"], returning: [], newcomer: "w",
             expected: .admit(closing: [LinkID(1)])),
        Case(name: "a returning neighbour's link is passed over", held: ["c", "y", "z"], returning: ["c"], newcomer: "w",
             expected: .admit(closing: [LinkID(2)])),
        Case(name: "full of returning neighbours: a stranger is refused", held: ["c", "d", "e"], returning: ["c", "d", "e"],
             newcomer: "w", expected: .refuse),
        Case(name: "full of returning neighbours: another returning one displaces the oldest", held: ["c", "d", "e"],
             returning: ["c", "d", "e", "f"], newcomer: "f", expected: .admit(closing: [LinkID(1)])),
        Case(name: "a third link from one address closes that address's oldest", held: ["x", "x"], returning: [],
             newcomer: "x", expected: .admit(closing: [LinkID(1)])),
    ]

    @Test(arguments: cases)
    func decides(_ example: Case) {
        var admission = Self.full(example.held, returning: example.returning)
        #expect(admission.admit(LinkID(50), address: example.newcomer, now: .seconds(3)) == example.expected)
        #expect(admission.unkeyedLinks.count <= Self.limits.maxUnkeyedLinks)
    }

    @Test func keyedLinksLeaveTheBudgetAndTheirAddressIsRemembered() {
        var admission = Self.full(["x", "y", "z"])
        admission.keyed(LinkID(1), address: "x", now: .seconds(3))
        #expect(admission.unkeyedLinks == [LinkID(2), LinkID(3)])
        #expect(admission.isReturning(address: "x", now: .seconds(3)))
        #expect(!admission.isReturning(address: "x", now: .seconds(3 + 600)))
        #expect(admission.admit(LinkID(9), address: "w", now: .seconds(4)) == .admit(closing: []))
    }

    @Test("the key deadline closes strangers' links only", arguments: [(5, [UInt64]()), (6, [1]), (8, [1, 2, 3])])
    func deadline(seconds: Int, closed: [UInt64]) {
        var admission = Self.full(["x", "y", "c"], returning: ["c"])
        let overdue = admission.overdue(now: .seconds(seconds))
        // Link 3 is from a returning address: it has the whole handshake timeout, not the key deadline.
        #expect(overdue == closed.filter { $0 != 3 }.map(LinkID.init))
        #expect(admission.counters.keyDeadlineCloses == UInt64(overdue.count))
    }

    @Test("the per-address limit counts a UDP host, whatever its source ports")
    func perAddressCountsTheHost() {
        var admission = LinkAdmission(limits: LinkAdmissionLimits(maxUnkeyedLinks: 32, maxUnkeyedPerAddress: 2))
        for port in 1...2 {
            #expect(admission.admit(LinkID(UInt64(port)), address: "10.0.0.9:\(port)", host: "10.0.0.9", now: .seconds(port)) == .admit(closing: []))
        }
        #expect(admission.admit(LinkID(3), address: "10.0.0.9:3", host: "10.0.0.9", now: .seconds(3)) == .admit(closing: [LinkID(1)]))
        #expect(admission.admit(LinkID(4), address: "10.0.0.8:1", host: "10.0.0.8", now: .seconds(4)) == .admit(closing: []))
        #expect(admission.counters.evictedSameAddress == 1)
    }

    /// Limits of two transports: port 0 (BLE, 4 unkeyed), port 1 (LAN, 32), 32 in all.
    static let twoTransports: LinkAdmissionLimits = {
        var limits = LinkAdmissionLimits(maxUnkeyedLinks: 32, maxUnkeyedPerAddress: 2)
        limits.maxUnkeyedPerTransport = [0: 4, 1: 32]
        return limits
    }()

    @Test("a flood of connects on one transport evicts its own links, never another transport's handshakes")
    func floodOnOneTransportSparesTheOther() {
        var admission = LinkAdmission(limits: Self.twoTransports)
        let ble = [LinkID(1, port: PortID(0)), LinkID(2, port: PortID(0))]
        for (index, link) in ble.enumerated() {
            #expect(admission.admit(link, address: "AA:BB:CC:DD:EE:0\(index)", now: .zero) == .admit(closing: []))
        }
        // 1,000 LAN connects from 1,000 hosts, each a stranger.
        for index in 0..<1_000 {
            let host = "10.0.\(index / 250).\(index % 250)"
            _ = admission.admit(LinkID(UInt64(100 + index), port: PortID(1)), address: host + ":7101", host: host, now: .milliseconds(index + 1))
        }
        #expect(Set(ble).isSubset(of: admission.unkeyedLinks))
        #expect(admission.unkeyedLinks.count == 32)
        // A new BLE link still gets its place: the LAN gives one up.
        let newcomer = LinkID(3, port: PortID(0))
        guard case .admit(let closing) = admission.admit(newcomer, address: "AA:BB:CC:DD:EE:09", now: .seconds(2)) else {
            Issue.record("a BLE link was refused")
            return
        }
        #expect(closing.count == 1 && closing.allSatisfy { $0.port == PortID(1) })
        #expect(admission.unkeyedLinks.contains(newcomer))
    }

    @Test("a transport past its own budget closes its own oldest stranger's link")
    func transportBudgetEvictsWithinTheTransport() {
        var admission = LinkAdmission(limits: Self.twoTransports)
        let lan = LinkID(50, port: PortID(1))
        _ = admission.admit(lan, address: "10.0.0.1:7101", host: "10.0.0.1", now: .zero)
        for index in 1...4 { _ = admission.admit(LinkID(UInt64(index), port: PortID(0)), address: "ble\(index)", now: .seconds(index)) }
        #expect(admission.admit(LinkID(5, port: PortID(0)), address: "ble5", now: .seconds(5)) == .admit(closing: [LinkID(1, port: PortID(0))]))
        #expect(admission.counters.evictedTransportFull == 1 && admission.unkeyedLinks.contains(lan))
    }

    @Test("With one unkeyed place, a stranger's handshake keeps it for the grace; a returning neighbour's takes it at once",
          arguments: [(500, false, nil), (1_999, false, nil), (2_000, false, 1), (500, true, 1)] as [(Int, Bool, UInt64?)])
    func graceProtectsAYoungHandshake(milliseconds: Int, returning: Bool, closed: UInt64?) {
        var admission = LinkAdmission(limits: LinkAdmissionLimits(maxUnkeyedLinks: 1, maxUnkeyedPerAddress: 2))
        if returning {
            _ = admission.admit(LinkID(90), address: "c", now: .zero)
            admission.keyed(LinkID(90), address: "c", now: .zero)
        }
        #expect(admission.admit(LinkID(1), address: "x", now: .zero) == .admit(closing: []))
        let decision = admission.admit(LinkID(2), address: returning ? "c" : "y", now: .milliseconds(milliseconds))
        #expect(decision == (closed.map { .admit(closing: [LinkID($0)]) } ?? .refuse))
        #expect(admission.counters.refusedFull == (closed == nil ? 1 : 0))
    }

    /// Four strangers start together with one unkeyed place between them (a node with three BLE
    /// slots): each opens a link every 1.6 s, staggered by 0.4 s, and a handshake needs 1.5 s.
    /// Returns the links keyed in 20 s.
    static func denseStart(grace: Duration) -> Int {
        var admission = LinkAdmission(limits: LinkAdmissionLimits(maxUnkeyedLinks: 1, maxUnkeyedPerAddress: 2, evictionGrace: grace))
        var keyed = 0
        var opened: [LinkID: Duration] = [:]
        var next: UInt64 = 1
        for step in 0..<200 {
            let now = Duration.milliseconds(step * 100)
            for (link, at) in opened where now - at >= .milliseconds(1_500) && admission.unkeyedLinks.contains(link) {
                admission.keyed(link, address: "k\(link.number)", now: now)
                keyed += 1
            }
            opened = opened.filter { admission.unkeyedLinks.contains($0.key) }
            if step % 4 == 0 {
                let link = LinkID(next)
                next += 1
                if case .admit = admission.admit(link, address: "s\(link.number % 4)-\(step)", now: now) { opened[link] = now }
            }
        }
        return keyed
    }

    @Test("Strangers starting at once key their links; with no grace each new link closes the handshake before it")
    func denseStartMakesProgress() {
        #expect(Self.denseStart(grace: .zero) == 0)
        #expect(Self.denseStart(grace: .seconds(2)) >= 10)
    }

    @Test func countersAddUp() {
        var admission = LinkAdmission(limits: Self.limits)
        for index in 1...10 { _ = admission.admit(LinkID(UInt64(index)), address: "s\(index)", now: .seconds(index)) }
        #expect(admission.counters.admitted == 10 && admission.counters.evictedOldest == 7)
        #expect(admission.unkeyedLinks == [LinkID(8), LinkID(9), LinkID(10)])
    }
}
