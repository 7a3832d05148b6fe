import MeshProtocol
import Testing
@testable import MeshCrypto

/// Two sessions for the two ends of one freshly keyed link.
func linkedSessions(padding: PaddingPolicy = .buckets) throws -> (a: LinkSession, b: LinkSession) {
    let keys = try linkKeyPair()
    return (LinkSession(keys: keys.a, padding: padding), LinkSession(keys: keys.b, padding: padding))
}

/// Runs a one-sided handshake between two new identities and returns both ends' keys.
func linkKeyPair(_ a: NodeIdentity? = nil, _ b: NodeIdentity? = nil) throws -> (a: LinkKeys, b: LinkKeys) {
    var first = LinkHandshake(identity: try a ?? NodeIdentity.generate())
    var second = LinkHandshake(identity: try b ?? NodeIdentity.generate())
    let opening = try #require(try first.start(now: .zero, timestamp: 0)?.hello)
    let (reply, proofB) = try second.receive(hello: opening, now: .zero)
    let (_, proofA) = try first.receive(hello: try #require(reply), now: .zero)
    return (try first.receive(proof: proofB, now: .zero), try second.receive(proof: proofA, now: .zero))
}

@Suite("Link session")
struct LinkSessionTests {
    let text = Array("an encoded envelope".utf8)

    @Test("Packets open in both directions; counters start at 1; layout and padding")
    func roundTrip() throws {
        var (a, b) = try linkedSessions()
        let packet = try a.seal(kind: .message, messageID: messageID(7), plaintext: text)
        #expect(Array(packet[0..<16]) == messageID(7).bytes)
        #expect(Array(packet[16..<24]) == [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(packet.count == 24 + 12 + 32 + 16)
        let opened = try b.open(kind: .message, packet: packet)
        #expect(opened.messageID == messageID(7) && opened.plaintext == text)
        let back = try b.seal(kind: .heartbeat, messageID: messageID(8), plaintext: [])
        #expect(try a.open(kind: .heartbeat, packet: back).plaintext == [])
        #expect(Array(try a.seal(kind: .message, messageID: messageID(9), plaintext: text)[16..<24]) == [0, 0, 0, 0, 0, 0, 0, 2])
        #expect(a.messagesSent == 2 && b.counters.opened == 1)
    }

    @Test("Minimal padding adds one byte")
    func minimalPadding() throws {
        var (a, b) = try linkedSessions(padding: .minimal)
        let packet = try a.seal(kind: .message, messageID: messageID(1), plaintext: text)
        #expect(packet.count == 24 + 12 + text.count + 1 + 16)
        #expect(try b.open(kind: .message, packet: packet).plaintext == text)
    }

    @Test("Flipping any byte of a packet or changing the kind fails, and each failure is counted")
    func tampering() throws {
        var (a, b) = try linkedSessions()
        let packet = try a.seal(kind: .message, messageID: messageID(3), plaintext: text)
        var failures = 0
        for index in packet.indices {
            if (try? b.open(kind: .message, packet: flipping(packet, at: index))) == nil { failures += 1 }
        }
        for kind in MessageKind.allCases where kind != .message {
            if (try? b.open(kind: kind, packet: packet)) == nil { failures += 1 }
        }
        #expect(failures == packet.count + MessageKind.allCases.count - 1)
        #expect(b.counters.totalFailures == UInt64(failures))
        #expect(b.counters.authenticationFailures > 0)
        #expect(try b.open(kind: .message, packet: packet).plaintext == text)
    }

    @Test("A packet cannot be reflected back to its sender")
    func noReflection() throws {
        var (a, _) = try linkedSessions()
        let packet = try a.seal(kind: .message, messageID: messageID(3), plaintext: text)
        #expect(throws: CryptoError.authenticationFailed) { try a.open(kind: .message, packet: packet) }
    }

    @Test("A replayed packet is dropped and counted; reordering within the window is accepted")
    func replay() throws {
        var (a, b) = try linkedSessions()
        let packets = try (1...70).map { try a.seal(kind: .message, messageID: messageID(UInt8($0)), plaintext: text) }
        for index in [2, 0, 1, 4, 3] { _ = try b.open(kind: .message, packet: packets[index]) }
        #expect(throws: CryptoError.replay(counter: 2)) { try b.open(kind: .message, packet: packets[1]) }
        _ = try b.open(kind: .message, packet: packets[69])
        #expect(throws: CryptoError.replay(counter: 6)) { try b.open(kind: .message, packet: packets[5]) }
        _ = try b.open(kind: .message, packet: packets[6])
        #expect(b.counters.replaysDropped == 2)
    }

    @Test("Short and oversized packets are typed errors")
    func bounds() throws {
        var (_, b) = try linkedSessions()
        #expect(throws: CryptoError.truncated(field: "link packet", size: 52, minimum: 53)) {
            try b.open(kind: .message, packet: [UInt8](repeating: 0, count: 52))
        }
        let huge = [UInt8](repeating: 0, count: LinkSession.maximumPacketLength + 1)
        #expect(throws: CryptoError.tooLarge(field: "link packet", size: huge.count, limit: LinkSession.maximumPacketLength)) {
            try b.open(kind: .message, packet: huge)
        }
        #expect(b.counters.malformed == 2)
    }

    @Test("After a rekey, packets sealed under the previous key still open for a grace period")
    func rekeyGrace() throws {
        let identities = [try NodeIdentity.generate(), try NodeIdentity.generate()]
        let first = try linkKeyPair(identities[0], identities[1])
        let second = try linkKeyPair(identities[0], identities[1])
        var a = LinkSession(keys: first.a)
        var b = LinkSession(keys: first.b)
        let late = try (0..<2).map { _ in try a.seal(kind: .message, messageID: messageID(1), plaintext: text) }
        b.rekey(with: second.b)
        a.rekey(with: second.a)
        #expect(try b.open(kind: .message, packet: late[0]).plaintext == text)
        #expect(b.counters.openedWithPreviousKey == 1)
        for _ in 0..<LinkSession.previousKeyGracePackets {
            _ = try b.open(kind: .message, packet: a.seal(kind: .message, messageID: messageID(2), plaintext: text))
        }
        #expect(throws: CryptoError.self) { try b.open(kind: .message, packet: late[1]) }
        #expect(b.counters.openedWithPreviousKey == 1)
        #expect(a.messagesSent == UInt64(LinkSession.previousKeyGracePackets))
    }
}

@Suite("Opaque link packets (PROTOCOL.md D14)")
struct OpaqueLinkPacketTests {
    @Test("Every packet seals a padding bucket (28 bytes of nonce and tag around it); the kind and body come back",
          arguments: [(0, 60), (22, 60), (23, 92), (118, 156), (119, 284), (4086, 4124), (4087, 8220), (61_430, 61_468), (61_431, 65_536), (65_498, 65_536)])
    func bucketSizes(bodyLength: Int, packetLength: Int) throws {
        var (a, b) = try linkedSessions()
        let body = [UInt8](repeating: 0x5A, count: bodyLength)
        let packet = try a.sealOpaque(kind: 0x03, plaintext: body)
        #expect(packet.count == packetLength)
        #expect(LinkSession.opaquePacketLength(for: bodyLength, policy: .buckets) == packetLength)
        let opened = try b.openOpaque(packet: packet)
        #expect(opened.kind == 0x03 && opened.plaintext == body)
    }

    @Test("Minimal padding: nonce, counter, kind, body, marker, tag")
    func minimalPadding() throws {
        var (a, b) = try linkedSessions(padding: .minimal)
        let packet = try a.sealOpaque(kind: 0x04, plaintext: [1, 2, 3])
        #expect(packet.count == 12 + 9 + 3 + 1 + 16)
        #expect(try b.openOpaque(packet: packet).plaintext == [1, 2, 3])
    }

    @Test("The same body sealed twice shares no byte position by design: nothing repeats in clear")
    func nothingRepeats() throws {
        var (a, _) = try linkedSessions()
        let body = Array("the same envelope on every hop".utf8)
        let first = try a.sealOpaque(kind: 0x02, plaintext: body)
        let second = try a.sealOpaque(kind: 0x02, plaintext: body)
        #expect(first.count == second.count)
        // Fresh nonce each time: the two boxes differ in (almost) every 16-byte window.
        let windows = stride(from: 0, to: first.count - 16, by: 16).filter { first[$0..<$0 + 16] == second[$0..<$0 + 16] }
        #expect(windows.isEmpty)
    }

    @Test("A replay, a second copy and counter order are judged by the sealed counter")
    func replays() throws {
        var (a, b) = try linkedSessions()
        let one = try a.sealOpaque(kind: 0x02, plaintext: [1])
        let two = try a.sealOpaque(kind: 0x02, plaintext: [2])
        #expect(try b.openOpaque(packet: two).plaintext == [2])
        #expect(try b.openOpaque(packet: one).plaintext == [1])
        #expect(throws: CryptoError.replay(counter: 1)) { try b.openOpaque(packet: one) }
        #expect(b.acceptedCounters.highest == 2)
        #expect(b.counters.replaysDropped == 1)
    }

    @Test("Altered bytes, the other form and the other direction do not open")
    func refusals() throws {
        var (a, b) = try linkedSessions()
        var packet = try a.sealOpaque(kind: 0x02, plaintext: [1, 2, 3])
        packet[20] ^= 1
        #expect(throws: CryptoError.self) { try b.openOpaque(packet: packet) }
        // A packet of today's form is not an opaque packet, and the reverse.
        let clear = try a.seal(kind: .message, messageID: messageID(1), plaintext: [1, 2, 3])
        #expect(throws: CryptoError.self) { try b.openOpaque(packet: clear) }
        let opaque = try a.sealOpaque(kind: 0x02, plaintext: [1, 2, 3])
        #expect(throws: CryptoError.self) { try b.open(kind: .message, packet: opaque) }
        // Reflected back to its sender.
        #expect(throws: CryptoError.self) { try a.openOpaque(packet: opaque) }
        // Bounds before any crypto.
        #expect(throws: CryptoError.self) { try b.openOpaque(packet: [UInt8](repeating: 0, count: 37)) }
        #expect(throws: CryptoError.self) { try b.openOpaque(packet: [UInt8](repeating: 0, count: 65_537)) }
        // A body too large for a 65,536-byte packet is not sealed.
        #expect(throws: CryptoError.self) { try a.sealOpaque(kind: 0x02, plaintext: [UInt8](repeating: 1, count: 65_499)) }
        #expect(b.counters.opened == 0)
    }

    @Test("Both forms share one counter sequence and one replay window")
    func sharedCounters() throws {
        var (a, b) = try linkedSessions()
        let clear = try a.seal(kind: .message, messageID: messageID(1), plaintext: [1])
        let opaque = try a.sealOpaque(kind: 0x02, plaintext: [2])
        #expect(a.lastSealedCounter == 2)
        #expect(try b.openOpaque(packet: opaque).plaintext == [2])
        #expect(try b.open(kind: .message, packet: clear).plaintext == [1])
        let accepted = b.acceptedCounters
        #expect(accepted.highest == 2 && accepted.received & 1 == 1)
    }

    @Test("After a re-key a packet sealed under the previous key still opens, once")
    func rekeyGrace() throws {
        let identities = (try NodeIdentity.generate(), try NodeIdentity.generate())
        let first = try linkKeyPair(identities.0, identities.1)
        var a = LinkSession(keys: first.a)
        var b = LinkSession(keys: first.b)
        let old = try a.sealOpaque(kind: 0x02, plaintext: [9])
        let second = try linkKeyPair(identities.0, identities.1)
        a.rekey(with: second.a)
        b.rekey(with: second.b)
        #expect(try b.openOpaque(packet: try a.sealOpaque(kind: 0x02, plaintext: [1])).plaintext == [1])
        #expect(try b.openOpaque(packet: old).plaintext == [9])
        #expect(b.lastOpenUsedPreviousKey)
        #expect(throws: CryptoError.self) { try b.openOpaque(packet: old) }
    }
}
