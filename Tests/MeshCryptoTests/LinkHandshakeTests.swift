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

/// What travels on the simulated link.
enum WireItem: Sendable {
    /// A signed key exchange of version 1.
    case legacy(KeyExchangeMessage)
    /// A private hello.
    case hello(PrivateHello)
    /// An identity proof.
    case proof([UInt8])

    var isProof: Bool {
        if case .proof = self { return true }
        return false
    }
}

/// Two handshakes joined by two in-order message queues, speaking the private key exchange
/// (`privateForm`) or version 1.
struct LinkSimulation {
    var identities: [NodeIdentity]
    var handshakes: [LinkHandshake]
    var queues: [[WireItem]] = [[], []]
    var keys: [LinkKeys?] = [nil, nil]
    /// Openings and answers sent (identity proofs are not counted).
    var messagesSent = 0
    /// Identity proofs that did not open or verify (a pairing replaced since).
    var failedProofs = 0
    let configuration: LinkHandshakeConfiguration

    init(lossless: Bool = false, privateForm: Bool = true) throws {
        identities = [try NodeIdentity.generate(), try NodeIdentity.generate()]
        var configuration = LinkHandshakeConfiguration()
        configuration.lossless = lossless
        configuration.speaksPrivate = privateForm
        self.configuration = configuration
        handshakes = identities.map { LinkHandshake(identity: $0, configuration: configuration) }
    }

    static func index(_ side: Side) -> Int { side == .a ? 0 : 1 }

    mutating func run(_ step: Step) throws {
        switch step {
        case .start(let side, let seconds):
            let index = Self.index(side)
            switch try handshakes[index].start(now: .seconds(seconds), timestamp: 0) {
            case .hello(let hello)?: send(.hello(hello), to: side.other)
            case .legacy(let message)?: send(.legacy(message), to: side.other)
            case nil: break
            }
        case .deliver(let side, let seconds):
            // Proofs sent before the next opening or answer arrive first (in order).
            while let head = queues[Self.index(side)].first, head.isProof { try deliverHead(to: side, seconds) }
            guard !queues[Self.index(side)].isEmpty else { return }
            try deliverHead(to: side, seconds)
        case .lose(let side):
            let index = Self.index(side)
            if let first = queues[index].firstIndex(where: { !$0.isProof }) { queues[index].remove(at: first) }
        case .linkDown(let side):
            handshakes[Self.index(side)].linkDown()
        case .restart(let side):
            let index = Self.index(side)
            let old = identities[index]
            identities[index] = try NodeIdentity(
                signingKey: P256SigningKey(rawRepresentation: old.signingKey.rawRepresentation()),
                agreementKey: P256KeyAgreementKey(rawRepresentation: old.agreementKey.rawRepresentation()))
            handshakes[index] = LinkHandshake(identity: identities[index], configuration: configuration)
            keys[index] = nil
        case .measure:
            messagesSent = 0
            keys = [nil, nil]
        }
    }

    /// Delivers every identity proof still in flight (the last step of a private exchange).
    mutating func deliverProofs(at seconds: Double) throws {
        for side in [Side.a, .b] {
            while let head = queues[Self.index(side)].first, head.isProof { try deliverHead(to: side, seconds) }
        }
    }

    private mutating func deliverHead(to side: Side, _ seconds: Double) throws {
        let index = Self.index(side)
        let item = queues[index].removeFirst()
        let now = Duration.seconds(seconds)
        switch item {
        case .legacy(let message):
            let (reply, derived) = try handshakes[index].receive(message, now: now, timestamp: 0)
            keys[index] = derived
            if let reply { send(.legacy(reply), to: side.other) }
        case .hello(let hello):
            let (reply, proof) = try handshakes[index].receive(hello: hello, now: now)
            if let reply { send(.hello(reply), to: side.other) }
            send(.proof(proof), to: side.other)
        case .proof(let proof):
            do {
                keys[index] = try handshakes[index].receive(proof: proof, now: now)
            } catch {
                failedProofs += 1
            }
        }
    }

    mutating func send(_ item: WireItem, to side: Side) {
        if !item.isProof { messagesSent += 1 }
        queues[Self.index(side)].append(item)
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

    @Test("Converges in exactly two messages, private or version 1", arguments: scenarios, [true, false])
    func converges(_ scenario: Scenario, privateForm: Bool) throws {
        var link = try LinkSimulation(privateForm: privateForm)
        for step in scenario.steps { try link.run(step) }
        try link.deliverProofs(at: 1e6)
        #expect(link.messagesSent == 2)
        #expect(link.queues[0].isEmpty && link.queues[1].isEmpty)
        let a = try #require(link.keys[0])
        let b = try #require(link.keys[1])
        #expect(a.sendKey == b.receiveKey && a.receiveKey == b.sendKey)
        #expect(a.sendKey != a.receiveKey)
        #expect(a.remoteNodeID == link.identities[1].nodeID && b.remoteNodeID == link.identities[0].nodeID)
        #expect(a.remoteSigningKey == link.identities[1].signingPublicKey)
    }

    @Test("Crossing openings delayed past the guard interval cost one extra message, never a loop", arguments: [true, false])
    func slowCrossing(privateForm: Bool) throws {
        var link = try LinkSimulation(privateForm: privateForm)
        for step: Step in [.start(.a, 0), .start(.b, 1.9), .deliver(.b, 2.5), .deliver(.a, 3)] { try link.run(step) }
        for time in [3.1, 3.2, 3.3] {
            try link.run(.deliver(.b, time))
            try link.run(.deliver(.a, time))
        }
        try link.deliverProofs(at: 4)
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
          arguments: [(false, 3.0, 4), (false, 3.5, 4), (false, 10.0, 4), (true, 3.0, 2), (true, 10.0, 2)], [true, false])
    func slowCrossingBothWays(_ row: (lossless: Bool, delay: Double, messages: Int), privateForm: Bool) throws {
        let (lossless, delay, messages) = row
        var link = try LinkSimulation(lossless: lossless, privateForm: privateForm)
        try link.run(.start(.a, 0))
        try link.run(.start(.b, 0))
        var now = 0.0
        for _ in 0..<10 {
            now += delay
            try link.run(.deliver(.a, now))
            try link.run(.deliver(.b, now))
        }
        try link.deliverProofs(at: now + delay)
        #expect(link.messagesSent == messages)
        #expect(link.queues[0].isEmpty && link.queues[1].isEmpty)
        let a = try #require(link.keys[0])
        let b = try #require(link.keys[1])
        #expect(a.sendKey == b.receiveKey && a.receiveKey == b.sendKey)
    }

    @Test("Retried openings while the first answers are slow still end with the same keys", arguments: [true, false])
    func retriesUnderSlowDelivery(privateForm: Bool) throws {
        var link = try LinkSimulation(privateForm: privateForm)
        // A opens, retries after the guard (the engine's handshake retry), B's answers arrive late.
        for step: Step in [.start(.a, 0), .start(.a, 2.1), .deliver(.b, 3.5), .deliver(.b, 5.6),
                           .deliver(.a, 7), .deliver(.a, 9.1)] { try link.run(step) }
        try link.deliverProofs(at: 10)
        #expect(link.queues[0].isEmpty && link.queues[1].isEmpty)
        #expect(link.messagesSent == 4)
        let a = try #require(link.keys[0])
        let b = try #require(link.keys[1])
        #expect(a.sendKey == b.receiveKey && a.receiveKey == b.sendKey)
    }

    @Test("A reflected key exchange is rejected, private or version 1", arguments: [true, false])
    func reflection(privateForm: Bool) throws {
        let identity = try NodeIdentity.generate()
        var configuration = LinkHandshakeConfiguration()
        configuration.speaksPrivate = privateForm
        var handshake = LinkHandshake(identity: identity, configuration: configuration)
        let opening = try #require(try handshake.start(now: .zero, timestamp: 0))
        var twin = LinkHandshake(identity: identity, configuration: configuration)
        switch opening {
        case .legacy(let message):
            #expect(throws: CryptoError.reflectedKeyExchange) { try twin.receive(message, now: .zero, timestamp: 0) }
            #expect(throws: CryptoError.reflectedKeyExchange) { try handshake.receive(message, now: .zero, timestamp: 0) }
        case .hello(let hello):
            // Our own hello sent back names our own ephemeral.
            #expect(throws: CryptoError.reflectedKeyExchange) { try handshake.receive(hello: hello, now: .zero) }
            // A twin with the same identity pairs, but its proof names us: refused.
            let (reply, twinProof) = try twin.receive(hello: hello, now: .zero)
            _ = try handshake.receive(hello: try #require(reply), now: .zero)
            #expect(throws: CryptoError.reflectedKeyExchange) { try handshake.receive(proof: twinProof, now: .zero) }
        }
    }

    @Test("Rekey is due after the message budget or the interval, not before keys exist")
    func rekeyPolicy() throws {
        var configuration = LinkHandshakeConfiguration(guardInterval: .seconds(2), rekeyAfterMessages: 100, rekeyInterval: .seconds(60))
        configuration.speaksPrivate = false
        var a = LinkHandshake(identity: try NodeIdentity.generate(), configuration: configuration)
        var b = LinkHandshake(identity: try NodeIdentity.generate(), configuration: configuration)
        #expect(!a.needsRekey(messagesSent: 1_000, now: .seconds(1_000)))
        let opening = try #require(try a.start(now: .seconds(10), timestamp: 0)?.legacyMessage)
        let reply = try #require(try b.receive(opening, now: .seconds(10), timestamp: 0).reply)
        let first = try a.receive(reply, now: .seconds(10), timestamp: 0).keys
        #expect(!a.needsRekey(messagesSent: 99, now: .seconds(69)))
        #expect(a.needsRekey(messagesSent: 100, now: .seconds(11)))
        #expect(a.needsRekey(messagesSent: 0, now: .seconds(70)))
        let rekey = try #require(try a.start(now: .seconds(70), timestamp: 0)?.legacyMessage)
        let answer = try #require(try b.receive(rekey, now: .seconds(70), timestamp: 0).reply)
        let second = try a.receive(answer, now: .seconds(70), timestamp: 0).keys
        #expect(second.sendKey != first.sendKey)
        #expect(!a.needsRekey(messagesSent: 0, now: .seconds(71)))
    }
}

extension LinkHandshake.Opening {
    /// The version 1 message, if this opening is one.
    var legacyMessage: KeyExchangeMessage? {
        if case .legacy(let message) = self { return message }
        return nil
    }

    /// The private hello, if this opening is one.
    var hello: PrivateHello? {
        if case .hello(let hello) = self { return hello }
        return nil
    }
}

@Suite("Private key exchange")
struct PrivateKeyExchangeTests {
    @Test("A new node answers a node of version 1 in version 1, and rekeys it in version 1")
    func answersVersionOne() throws {
        var legacyConfiguration = LinkHandshakeConfiguration()
        legacyConfiguration.speaksPrivate = false
        var new = LinkHandshake(identity: try NodeIdentity.generate())
        var old = LinkHandshake(identity: try NodeIdentity.generate(), configuration: legacyConfiguration)
        // Both open on link up: the old node never reads the hello (an unknown frame kind to it).
        #expect(try new.start(now: .zero, timestamp: 0)?.hello != nil)
        let oldOpening = try #require(try old.start(now: .zero, timestamp: 0)?.legacyMessage)
        let (reply, newKeys) = try new.receive(oldOpening, now: .milliseconds(100), timestamp: 0)
        let answer = try #require(reply, "the old node never saw our hello: its opening must be answered")
        let (none, oldKeys) = try old.receive(answer, now: .milliseconds(200), timestamp: 0)
        #expect(none == nil)
        #expect(newKeys.sendKey == oldKeys.receiveKey && newKeys.receiveKey == oldKeys.sendKey)
        #expect(new.peerIsLegacy)
        #expect(try new.start(now: .seconds(3600), timestamp: 0)?.legacyMessage != nil)
    }

    @Test("Neither the hello nor the proof carries an identity key or node ID in clear")
    func nothingInClear() throws {
        let a = try NodeIdentity.generate()
        let b = try NodeIdentity.generate()
        var first = LinkHandshake(identity: a)
        var second = LinkHandshake(identity: b)
        let hello = try #require(try first.start(now: .zero, timestamp: 0)?.hello)
        let (reply, proofB) = try second.receive(hello: hello, now: .zero)
        let answer = try #require(reply)
        let (none, proofA) = try first.receive(hello: answer, now: .zero)
        #expect(none == nil)
        let onAir = [hello.encoded(), answer.encoded(), proofA, proofB]
        #expect(onAir.map(\.count) == [98, 98, 222, 222])
        for identity in [a, b] {
            for secret in [identity.signingPublicKey.x963, identity.agreementPublicKey.x963, identity.nodeID.bytes] {
                let probe = Array(secret[1..<9])
                for bytes in onAir {
                    #expect(!bytes.indices.dropLast(probe.count - 1).contains { Array(bytes[$0..<($0 + probe.count)]) == probe })
                }
            }
        }
        let keysA = try first.receive(proof: proofB, now: .zero)
        let keysB = try second.receive(proof: proofA, now: .zero)
        #expect(keysA.remoteNodeID == b.nodeID && keysB.remoteNodeID == a.nodeID)
        #expect(keysA.sendKey == keysB.receiveKey && keysA.receiveKey == keysB.sendKey)
        #expect(keysA.remoteAgreementKey == b.agreementPublicKey)
        // A proof opens once: a copy finds no pairing waiting.
        #expect(throws: CryptoError.unexpectedIdentityProof) { try first.receive(proof: proofB, now: .zero) }
    }

    @Test("A proof made for another pairing does not open")
    func proofBoundToItsPairing() throws {
        var a = LinkHandshake(identity: try NodeIdentity.generate())
        var b = LinkHandshake(identity: try NodeIdentity.generate())
        var c = LinkHandshake(identity: try NodeIdentity.generate())
        let helloA = try #require(try a.start(now: .zero, timestamp: 0)?.hello)
        let (replyB, _) = try b.receive(hello: helloA, now: .zero)
        _ = try a.receive(hello: try #require(replyB), now: .zero)
        // C pairs with A's hello too and sends its proof: A is paired with B, not C.
        let (_, proofC) = try c.receive(hello: helloA, now: .zero)
        #expect(throws: CryptoError.authenticationFailed) { try a.receive(proof: proofC, now: .zero) }
    }

    @Test("Hellos of the wrong length, version or point are refused", arguments: [
        (Array(repeating: UInt8(0), count: 97), "truncated"), (Array(repeating: UInt8(0), count: 99), "tooLarge"),
        ([UInt8(1)] + Array(repeating: UInt8(0), count: 97), "unsupportedVersion"),
        ([UInt8(2), 4] + Array(repeating: UInt8(0), count: 96), "invalidPublicKey"),
    ])
    func badHellos(bytes: [UInt8], expected: String) {
        #expect(throws: CryptoError.self) { try PrivateHello(decoding: bytes) }
        do {
            _ = try PrivateHello(decoding: bytes)
        } catch {
            #expect("\(error)".hasPrefix(expected))
        }
    }
}
