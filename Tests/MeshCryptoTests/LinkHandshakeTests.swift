import Testing
@testable import MeshCrypto

/// One side of a simulated link.
enum Side: Sendable, CustomStringConvertible {
    case a, b
    var other: Side { self == .a ? .b : .a }
    var description: String { self == .a ? "A" : "B" }
}

/// One event on the simulated link; times are seconds since an arbitrary origin.
enum Step: Sendable {
    /// Link up (or rekey) on one side at a time.
    case start(Side, Double)
    /// The oldest message in flight to a side arrives.
    case deliver(Side, Double)
    /// The oldest message in flight to a side is lost.
    case lose(Side)
    /// A side learns the link went down.
    case linkDown(Side)
    /// A side's process restarts: new handshake value, identity reloaded from the same keys.
    case restart(Side)
    /// Start counting messages and forget both sides' keys: the convergence check starts here.
    case measure
}

/// A named table row: steps before `measure` set the scene, steps after must converge.
struct Scenario: Sendable, CustomStringConvertible {
    let description: String
    let steps: [Step]
}

/// Two handshakes joined by two in-order message queues.
struct LinkSimulation {
    var identities: [NodeIdentity]
    var handshakes: [LinkHandshake]
    var queues: [[KeyExchangeMessage]] = [[], []]
    var keys: [LinkKeys?] = [nil, nil]
    var messagesSent = 0

    init(lossless: Bool = false) throws {
        identities = [try NodeIdentity.generate(), try NodeIdentity.generate()]
        var configuration = LinkHandshakeConfiguration()
        configuration.lossless = lossless
        handshakes = identities.map { LinkHandshake(identity: $0, configuration: configuration) }
    }

    static func index(_ side: Side) -> Int { side == .a ? 0 : 1 }

    mutating func run(_ step: Step) throws {
        switch step {
        case .start(let side, let seconds):
            let index = Self.index(side)
            if let message = try handshakes[index].start(now: .seconds(seconds), timestamp: 0) { send(message, to: side.other) }
        case .deliver(let side, let seconds):
            let index = Self.index(side)
            guard !queues[index].isEmpty else { return }
            let message = queues[index].removeFirst()
            let (reply, derived) = try handshakes[index].receive(message, now: .seconds(seconds), timestamp: 0)
            keys[index] = derived
            if let reply { send(reply, to: side.other) }
        case .lose(let side):
            queues[Self.index(side)].removeFirst()
        case .linkDown(let side):
            handshakes[Self.index(side)].linkDown()
        case .restart(let side):
            let index = Self.index(side)
            let old = identities[index]
            identities[index] = try NodeIdentity(
                signingKey: P256SigningKey(rawRepresentation: old.signingKey.rawRepresentation()),
                agreementKey: P256KeyAgreementKey(rawRepresentation: old.agreementKey.rawRepresentation()))
            handshakes[index] = LinkHandshake(identity: identities[index])
            keys[index] = nil
        case .measure:
            messagesSent = 0
            keys = [nil, nil]
        }
    }

    mutating func send(_ message: KeyExchangeMessage, to side: Side) {
        messagesSent += 1
        queues[Self.index(side)].append(message)
    }
}

@Suite("Link handshake convergence")
struct LinkHandshakeTests {
    static let keyed: [Step] = [.start(.a, 0), .deliver(.b, 0.1), .deliver(.a, 0.2)]

    static let scenarios: [Scenario] = [
        Scenario(description: "only A starts", steps: [.measure, .start(.a, 0), .deliver(.b, 0.1), .deliver(.a, 0.2)]),
        Scenario(description: "only B starts", steps: [.measure, .start(.b, 0), .deliver(.a, 0.1), .deliver(.b, 0.2)]),
        Scenario(description: "both start at once, A hears first",
                 steps: [.measure, .start(.a, 0), .start(.b, 0), .deliver(.a, 0.1), .deliver(.b, 0.1)]),
        Scenario(description: "both start at once, B hears first",
                 steps: [.measure, .start(.a, 0), .start(.b, 0), .deliver(.b, 0.1), .deliver(.a, 0.2)]),
        Scenario(description: "B starts 1.5 s after A, before A's opening arrives",
                 steps: [.measure, .start(.a, 0), .start(.b, 1.5), .deliver(.b, 1.6), .deliver(.a, 1.9)]),
        Scenario(description: "slow answer (after the guard interval) is not answered again",
                 steps: [.measure, .start(.a, 0), .deliver(.b, 5), .deliver(.a, 9)]),
        Scenario(description: "B restarts and starts; A has no link-down signal",
                 steps: keyed + [.restart(.b), .measure, .start(.b, 60), .deliver(.a, 60.1), .deliver(.b, 60.2)]),
        Scenario(description: "B restarts; both see the link return and start",
                 steps: keyed + [.restart(.b), .linkDown(.a), .measure, .start(.a, 60), .start(.b, 60),
                                 .deliver(.b, 60.1), .deliver(.a, 60.1)]),
        Scenario(description: "B restarts within A's guard interval",
                 steps: keyed + [.restart(.b), .measure, .start(.b, 0.5), .start(.a, 0.5), .deliver(.a, 0.6),
                                 .deliver(.b, 0.7)]),
        Scenario(description: "A restarts within the guard interval, B sees the link drop",
                 steps: keyed + [.restart(.a), .linkDown(.b), .measure, .start(.a, 0.5), .start(.b, 0.5),
                                 .deliver(.b, 0.6), .deliver(.a, 0.6)]),
        Scenario(description: "link drops and returns later, both start",
                 steps: keyed + [.linkDown(.a), .linkDown(.b), .measure, .start(.a, 100), .start(.b, 100),
                                 .deliver(.a, 100.1), .deliver(.b, 100.2)]),
        Scenario(description: "link drops and returns later, only B starts",
                 steps: keyed + [.linkDown(.a), .linkDown(.b), .measure, .start(.b, 100), .deliver(.a, 100.1),
                                 .deliver(.b, 100.2)]),
        Scenario(description: "opening lost as the link drops; it returns within the guard interval",
                 steps: [.start(.a, 0), .lose(.b), .linkDown(.a), .linkDown(.b), .measure, .start(.a, 0.5),
                         .start(.b, 0.5), .deliver(.b, 0.6), .deliver(.a, 0.6)]),
        Scenario(description: "opening lost, link returns within the guard interval, only B starts",
                 steps: [.start(.a, 0), .lose(.b), .linkDown(.a), .linkDown(.b), .measure, .start(.b, 0.5),
                         .deliver(.a, 0.6), .deliver(.b, 0.7)]),
        Scenario(description: "duplicate link-up signals within the guard interval",
                 steps: [.measure, .start(.a, 0), .start(.a, 0.3), .deliver(.b, 0.4), .start(.b, 0.5), .deliver(.a, 0.6)]),
        Scenario(description: "A rekeys an hour later",
                 steps: keyed + [.measure, .start(.a, 3600), .deliver(.b, 3600.1), .deliver(.a, 3600.2)]),
        Scenario(description: "both rekey at the same moment",
                 steps: keyed + [.measure, .start(.a, 3600), .start(.b, 3600), .deliver(.b, 3600.1), .deliver(.a, 3600.1)]),
    ]

    @Test("Converges in exactly two messages", arguments: scenarios)
    func converges(_ scenario: Scenario) throws {
        var link = try LinkSimulation()
        for step in scenario.steps { try link.run(step) }
        #expect(link.messagesSent == 2)
        #expect(link.queues[0].isEmpty && link.queues[1].isEmpty)
        let a = try #require(link.keys[0])
        let b = try #require(link.keys[1])
        #expect(a.sendKey == b.receiveKey && a.receiveKey == b.sendKey)
        #expect(a.sendKey != a.receiveKey)
        #expect(a.remoteNodeID == link.identities[1].nodeID && b.remoteNodeID == link.identities[0].nodeID)
        #expect(a.remoteSigningKey == link.identities[1].signingPublicKey)
    }

    @Test("Crossing openings delayed past the guard interval cost one extra message, never a loop")
    func slowCrossing() throws {
        var link = try LinkSimulation()
        for step: Step in [.start(.a, 0), .start(.b, 1.9), .deliver(.b, 2.5), .deliver(.a, 3)] { try link.run(step) }
        for time in [3.1, 3.2, 3.3] {
            try link.run(.deliver(.b, time))
            try link.run(.deliver(.a, time))
        }
        #expect(link.messagesSent == 3)
        #expect(link.queues[0].isEmpty && link.queues[1].isEmpty)
        let a = try #require(link.keys[0])
        let b = try #require(link.keys[1])
        #expect(a.sendKey == b.receiveKey && a.receiveKey == b.sendKey)
    }

    /// Openings that cross slower than the 2 s guard. On a lossy link (UDP) both ends answer the
    /// other's opening, and the two answers, each naming an ephemeral the other side has since
    /// replaced, are not answered again: four messages, never a loop. On a lossless link (BLE) an
    /// opening is never lost, so one that arrives while ours is unpaired crossed it, however
    /// slow: two messages.
    @Test("Openings that cross slower than the guard interval converge, never loop",
          arguments: [(false, 3.0, 4), (false, 3.5, 4), (false, 10.0, 4), (true, 3.0, 2), (true, 10.0, 2)])
    func slowCrossingBothWays(lossless: Bool, delay: Double, messages: Int) throws {
        var link = try LinkSimulation(lossless: lossless)
        try link.run(.start(.a, 0))
        try link.run(.start(.b, 0))
        var now = 0.0
        for _ in 0..<10 {
            now += delay
            try link.run(.deliver(.a, now))
            try link.run(.deliver(.b, now))
        }
        #expect(link.messagesSent == messages)
        #expect(link.queues[0].isEmpty && link.queues[1].isEmpty)
        let a = try #require(link.keys[0])
        let b = try #require(link.keys[1])
        #expect(a.sendKey == b.receiveKey && a.receiveKey == b.sendKey)
    }

    @Test("Retried openings while the first answers are slow still end with the same keys")
    func retriesUnderSlowDelivery() throws {
        var link = try LinkSimulation()
        // A opens, retries after the guard (the engine's handshake retry), B's answers arrive late.
        for step: Step in [.start(.a, 0), .start(.a, 2.1), .deliver(.b, 3.5), .deliver(.b, 5.6),
                           .deliver(.a, 7), .deliver(.a, 9.1)] { try link.run(step) }
        #expect(link.queues[0].isEmpty && link.queues[1].isEmpty)
        #expect(link.messagesSent == 4)
        let a = try #require(link.keys[0])
        let b = try #require(link.keys[1])
        #expect(a.sendKey == b.receiveKey && a.receiveKey == b.sendKey)
    }

    @Test("A reflected key exchange is rejected")
    func reflection() throws {
        let identity = try NodeIdentity.generate()
        var handshake = LinkHandshake(identity: identity)
        let opening = try #require(try handshake.start(now: .zero, timestamp: 0))
        var twin = LinkHandshake(identity: identity)
        #expect(throws: CryptoError.reflectedKeyExchange) { try twin.receive(opening, now: .zero, timestamp: 0) }
        #expect(throws: CryptoError.reflectedKeyExchange) { try handshake.receive(opening, now: .zero, timestamp: 0) }
    }

    @Test("Rekey is due after the message budget or the interval, not before keys exist")
    func rekeyPolicy() throws {
        let configuration = LinkHandshakeConfiguration(guardInterval: .seconds(2), rekeyAfterMessages: 100, rekeyInterval: .seconds(60))
        var a = LinkHandshake(identity: try NodeIdentity.generate(), configuration: configuration)
        var b = LinkHandshake(identity: try NodeIdentity.generate(), configuration: configuration)
        #expect(!a.needsRekey(messagesSent: 1_000, now: .seconds(1_000)))
        let opening = try #require(try a.start(now: .seconds(10), timestamp: 0))
        let reply = try #require(try b.receive(opening, now: .seconds(10), timestamp: 0).reply)
        let first = try a.receive(reply, now: .seconds(10), timestamp: 0).keys
        #expect(!a.needsRekey(messagesSent: 99, now: .seconds(69)))
        #expect(a.needsRekey(messagesSent: 100, now: .seconds(11)))
        #expect(a.needsRekey(messagesSent: 0, now: .seconds(70)))
        let rekey = try #require(try a.start(now: .seconds(70), timestamp: 0))
        let answer = try #require(try b.receive(rekey, now: .seconds(70), timestamp: 0).reply)
        let second = try a.receive(answer, now: .seconds(70), timestamp: 0).keys
        #expect(second.sendKey != first.sendKey)
        #expect(!a.needsRekey(messagesSent: 0, now: .seconds(71)))
    }
}
