@testable import MeshNode
import MeshProtocol
import Testing

/// The ring behind a link's recent sends against the array it replaced: same entries, same order.
@Suite struct RecentSendsTests {
    private func envelope(_ index: Int) throws -> Envelope {
        let origin = try NodeID(bytes: [UInt8](repeating: 7, count: NodeID.byteCount))
        return Envelope(kind: .message, messageID: try MessageID(bytes: (0..<16).map { UInt8(truncatingIfNeeded: index &+ $0) }),
                        origin: origin, timestamp: UInt64(index))
    }

    /// The array the ring replaced (LinkState before), as the reference.
    private struct Reference {
        var sends: [(envelope: Envelope, sentAt: Duration)] = []

        mutating func note(_ envelope: Envelope, now: Duration, window: Duration, limit: Int) {
            var expired = 0
            while expired < sends.count, now - sends[expired].sentAt >= window { expired += 1 }
            if expired > 0 { sends.removeFirst(expired) }
            if sends.count >= limit { sends.removeFirst() }
            sends.append((envelope, now))
        }

        func envelopes(sentWithin window: Duration, before now: Duration) -> [Envelope] {
            sends.filter { now - $0.sentAt < window }.map(\.envelope)
        }
    }

    @Test("The ring keeps the same sends in the same order as the array it replaced", arguments: [(limit: 1, step: 10), (limit: 3, step: 10), (limit: 5, step: 70), (limit: 64, step: 15)])
    func theRingKeepsWhatTheArrayKept(limit: Int, step: Int) throws {
        var ring = RecentSends()
        var reference = Reference()
        let window = Duration.milliseconds(200)
        for index in 0..<150 {
            // Irregular spacing: runs of sends within the window, then gaps beyond it.
            let now = Duration.milliseconds(index * step + (index / 7) * 250)
            ring.note(try envelope(index), now: now, window: window, limit: limit)
            reference.note(try envelope(index), now: now, window: window, limit: limit)
            #expect(ring.count == reference.sends.count)
            #expect(ring.envelopes(sentWithin: window, before: now) == reference.envelopes(sentWithin: window, before: now))
            let later = now + .milliseconds(120)
            #expect(ring.envelopes(sentWithin: window, before: later) == reference.envelopes(sentWithin: window, before: later))
        }
    }

    @Test("A link that sent nothing has nothing to send again")
    func nothingNotedGivesNothing() {
        #expect(RecentSends().envelopes(sentWithin: .seconds(1), before: .seconds(5)).isEmpty)
    }
}
