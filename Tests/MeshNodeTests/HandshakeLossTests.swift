import MeshCrypto
import MeshNode
import MeshProtocol
import Testing

@Suite("Handshake under frame loss")
struct HandshakeLossTests {
    /// Every frame of the handshake (key exchanges, profiles, and the first heartbeats) is
    /// lost once, in each direction: the link must still become ready well inside the
    /// 10 s handshake timeout, by the retry after the 2 s guard interval.
    @Test("One lost handshake frame costs a retry, not the link",
          arguments: [true, false], 0..<10)
    func oneLostFrame(toB: Bool, index: Int) throws {
        let pair = try EnginePair(losing: (toB, index))
        for _ in 0..<24 where !pair.bothReady { pair.advance(.milliseconds(250)) }
        #expect(pair.bothReady)
        #expect(pair.a.linkCounters.handshakeTimeouts == 0)
        #expect(pair.b.linkCounters.handshakeTimeouts == 0)
        try pair.send("after the loss")
        #expect(pair.delivered.map(\.text) == ["after the loss"])
    }

    @Test("A clean handshake needs no retry")
    func cleanHandshake() throws {
        let pair = try EnginePair()
        #expect(pair.bothReady)
        for _ in 0..<40 { pair.advance(.milliseconds(250)) }
        #expect(pair.a.linkCounters.handshakeRetries == 0)
        #expect(pair.b.linkCounters.handshakeRetries == 0)
    }
}
