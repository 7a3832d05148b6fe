import Mailbox
import MeshNode
import MeshProtocol

extension MailboxCourier {
    /// The courier starts a lookup for waiting messages only while fewer than this many are in flight.
    public static let lookupsInFlight = 2

    /// This node's own messages waiting for keys (docs/PROTOCOL.md H4, "Waiting for a key"): those
    /// whose key is known now are sealed and sent like any direct message, oldest first (the engine
    /// offers each to the mailbox when its recipient is unreachable); for the others a lookup is
    /// started when the schedule says so and none is in flight for it, while fewer than
    /// ``lookupsInFlight`` are in flight in all: a lookup sends about 4 requests in its 10 s, so
    /// the requests stay within a neighbour's budget of 1 a second (PROTOCOL.md H3) even when a
    /// restart makes every waiting recipient's lookup due at once.
    func sendWaitingForKey(
        engine: MeshEngine, now: Duration, meshNow: UInt64, outcome: inout MailboxTickOutcome, perform: ([EngineAction]) -> Bool
    ) {
        for target in store.keyWait.targets where engine.knowsKey(of: target) {
            for entry in store.keyWait.waiting(for: target) {
                guard let text = store.waitingText(for: entry.messageID) else {
                    store.discardWaiting(entry.messageID)
                    continue
                }
                guard let (_, actions) = try? engine.send(text: text, to: target, messageID: entry.messageID, now: now) else { break }
                _ = perform(actions)
                store.sentAfterKey(entry.messageID)
                outcome.sentAfterKey[target, default: 0] += 1
            }
        }
        for target in store.keyWait.lookupsDue(now: meshNow) where !engine.knowsKey(of: target) {
            guard engine.pendingLookups.lookups.count < Self.lookupsInFlight else { return }
            guard engine.pendingLookups.lookups[target] == nil else { continue }
            let (start, actions) = engine.lookUp(target, now: now)
            _ = perform(actions)
            if start != .full { store.lookupStarted(for: target, now: meshNow) }
        }
    }
}
