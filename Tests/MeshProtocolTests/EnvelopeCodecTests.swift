import Testing
@testable import MeshProtocol

private func node(_ seed: UInt8) -> NodeID { try! NodeID(bytes: Array(repeating: seed, count: 16)) }
private func messageID(_ seed: UInt8) -> MessageID { try! MessageID(bytes: (0..<16).map { seed &+ UInt8($0) }) }

/// Envelopes covering every optional field.
private let samples: [Envelope] = [
    Envelope(kind: .heartbeat, messageID: messageID(1), origin: node(0xA1), timestamp: 0),
    Envelope(
        kind: .message, messageID: messageID(2), origin: node(0xA1), hops: 2,
        route: [node(0xA1), node(0xB2)], timestamp: 1_700_000_000_000, payload: Array("hello".utf8),
        signature: Array(repeating: 0x5A, count: 64)),
    Envelope(
        kind: .message, messageID: messageID(3), origin: node(0xA1), destination: node(0xC3), hops: 1,
        route: [node(0xA1)], timestamp: 42, isInnerSealed: true, payload: Array(repeating: 7, count: 300)),
    Envelope(kind: .keyExchange, messageID: messageID(4), origin: node(0x01), timestamp: 9, payload: [1, 2, 3]),
]

@Test("Envelopes round-trip byte for byte", arguments: samples)
func envelopeRoundTrip(envelope: Envelope) throws {
    let bytes = envelope.encoded()
    let decoded = try Envelope(decoding: bytes)
    #expect(decoded == envelope)
    #expect(decoded.encoded() == bytes)
}

@Test("Every truncation decodes to a typed error", arguments: samples)
func everyTruncationFails(envelope: Envelope) {
    let bytes = envelope.encoded()
    for length in 0..<bytes.count {
        #expect(throws: WireError.self) { try Envelope(decoding: bytes.prefix(length)) }
    }
}

@Test("Every single-byte mutation gives a value or a typed error", arguments: samples)
func everyMutationIsHandled(envelope: Envelope) {
    let bytes = envelope.encoded()
    var decodedCount = 0
    var errorCount = 0
    for index in bytes.indices {
        for delta: UInt8 in [0x01, 0x80, 0xFF] {
            var mutated = bytes
            mutated[index] ^= delta
            do {
                let value = try Envelope(decoding: mutated)
                #expect(value.encoded() == mutated)
                decodedCount += 1
            } catch {
                errorCount += 1
            }
        }
    }
    #expect(decodedCount + errorCount == bytes.count * 3)
    #expect(errorCount > 0)
}

@Test("Signed bytes exclude hops and route but cover the payload")
func signedBytesCoverage() {
    var envelope = samples[1]
    let original = envelope.signedBytes
    envelope.hops += 1
    envelope.route.append(node(0xEE))
    #expect(envelope.signedBytes == original)
    envelope.payload[0] ^= 1
    #expect(envelope.signedBytes != original)
}

/// Hand-built bad envelopes and the error each must give.
private let badInputs: [(String, [UInt8], WireError)] = [
    ("empty", [], .truncated(needed: 1, remaining: 0)),
    ("version 2", [2, 2, 0, 0], .unsupportedVersion(2)),
    ("kind 0", [1, 0, 0, 0], .unknownKind(0)),
    ("kind 8", [1, 8, 0, 0], .unknownKind(8)),
    ("reserved flag", [1, 2, 0x08, 0], .reservedFlags(0x08)),
    ("sealed broadcast", [1, 2, 0x02, 0], .invalidField("inner-sealed envelope without a destination")),
]

@Test("Bad headers give their typed error", arguments: badInputs)
func badHeaders(name: String, bytes: [UInt8], expected: WireError) {
    #expect(throws: expected) { try Envelope(decoding: bytes) }
}

@Test("Oversized lengths are refused before any allocation")
func oversizedLengths() {
    var bytes = samples[0].encoded()
    // payload length field sits after version, kind, flags, hops, id, origin, timestamp.
    let payloadLengthOffset = 4 + 16 + 16 + 8
    bytes.replaceSubrange(payloadLengthOffset..<payloadLengthOffset + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
    #expect(throws: WireError.lengthOutOfRange(field: "payload", value: 0xFFFF_FFFF, limit: Envelope.maxPayloadLength)) {
        try Envelope(decoding: bytes)
    }
    var routeBytes = samples[0].encoded()
    routeBytes[routeBytes.count - 1] = 200
    #expect(throws: WireError.lengthOutOfRange(field: "route", value: 200, limit: Envelope.maxRouteLength)) {
        try Envelope(decoding: routeBytes)
    }
}

@Test("Trailing bytes are rejected")
func trailingBytes() {
    let bytes = samples[0].encoded() + [0]
    #expect(throws: WireError.trailingBytes(1)) { try Envelope(decoding: bytes) }
}
