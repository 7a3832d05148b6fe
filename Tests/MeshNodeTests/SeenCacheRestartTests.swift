import Flooding
import MeshCrypto
import MeshProtocol
import Testing
@testable import MeshNode

@Suite("A restarted engine still drops what it saw before")
struct SeenCacheRestartTests {
    @Test("An ID seen before the restart is dropped as seen after it, until its wall-clock expiry")
    func seenAcrossRestart() throws {
        let identity = try NodeIdentity.generate()
        let before = MeshEngine(identity: identity, wallClockAtZero: 1_767_225_600_000)
        var random = SplitMix64(seed: 42)
        let id = MessageID(random: &random)
        before.router.recordOriginated(id, now: .seconds(5))
        let snapshot = before.seenCacheSnapshot(now: .seconds(20))
        // Restarted 30 s after the first engine started: its time zero is 30 s later on the wall.
        let after = MeshEngine(identity: identity, wallClockAtZero: 1_767_225_630_000)
        after.restoreSeenCache(snapshot, now: .zero)
        let copy = Envelope(kind: .message, messageID: id, origin: NodeID(testIndex: 9), hops: 0,
                            route: [NodeID(testIndex: 9)], timestamp: 1_767_225_605_000)
        #expect(after.router.precheck(copy, from: NodeID(testIndex: 9), now: .seconds(1)) == .seen)
        // Expiry stays at 5 s + 600 s on the first engine's clock: 575 s on the second's.
        #expect(after.router.precheck(copy, from: NodeID(testIndex: 9), now: .seconds(576)) == nil)
        #expect(after.router.seen.vouchedSince(now: .zero) == before.router.seen.vouchedSince(now: .seconds(30)) - .seconds(30))
    }

    @Test("An ID seen just before a quick restart is still seen, though the journal rounded its expiry up past one lifetime",
          arguments: [0, 1, 400, 999])
    func roundedExpiryAcrossQuickRestart(millisecondsBeforeRestart: UInt64) throws {
        let identity = try NodeIdentity.generate()
        let restartedAt: UInt64 = 1_767_225_630_250
        var random = SplitMix64(seed: 7)
        let id = MessageID(random: &random)
        // The journal keeps whole seconds, rounded up (SeenJournalSlot): up to 999 ms past the
        // new engine's zero plus one lifetime (600 s).
        let seenAt = restartedAt - millisecondsBeforeRestart
        let rounded = (seenAt + 600_000 + 999) / 1000 * 1000
        let snapshot = SeenCacheSnapshot(vouchedSince: 0, entries: [.init(messageID: id, expiresAt: rounded)])
        let after = MeshEngine(identity: identity, wallClockAtZero: restartedAt)
        after.restoreSeenCache(snapshot, now: .zero)
        let copy = Envelope(kind: .message, messageID: id, origin: NodeID(testIndex: 9), hops: 0,
                            route: [NodeID(testIndex: 9)], timestamp: seenAt)
        #expect(after.router.precheck(copy, from: NodeID(testIndex: 9), now: .milliseconds(10)) == .seen)
    }
}
