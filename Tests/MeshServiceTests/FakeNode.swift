import ControlProtocol
import MeshLink
import MeshNode
import MeshProtocol
import Synchronization
@testable import MeshService

/// A `NodeControlling` with fixed reports that records sends and lets tests emit watch events.
final class FakeNode: NodeControlling {
    struct Sent: Equatable, Sendable {
        let text: String
        let to: NodeID?
    }

    static let nodeID = NodeID(hex: "00112233445566778899aabbccddeeff")!
    static let neighbourID = NodeID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!
    static let messageID = MessageID(hex: "ffeeddccbbaa99887766554433221100")!
    /// A node whose key is not known at first: a lookup finds it after `lookupPollsToAnswer` polls.
    static let farID = NodeID(hex: "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")!
    /// A node whose key lookup never finds an answer (its timeout is `lookupTimeout`).
    static let lostID = NodeID(hex: "e0e1e2e3e4e5e6e7e8e9eaebecedeeef")!
    static let lookupPollsToAnswer = 2
    static let lookupTimeout = 1.0

    /// Lookup requests seen per node, and whether each started a lookup.
    let lookups = Mutex<[(node: NodeID, start: Bool)]>([])

    private let state = Mutex<(sent: [Sent], watchers: [UInt64: @Sendable (WatchEvent) -> Void], next: UInt64)>(([], [:], 0))

    var sent: [Sent] { state.withLock { $0.sent } }
    var watcherCount: Int { state.withLock { $0.watchers.count } }

    func send(text: String, to destination: NodeID?) throws(ControlFailure) -> OriginatedMessage {
        let waits = destination == Self.farID || destination == Self.lostID
        if let destination, destination != Self.neighbourID, !waits { throw .unknownNode(destination.hex) }
        if text.utf8.count > 100 { throw .tooLong(length: text.utf8.count, limit: 100) }
        state.withLock { $0.sent.append(Sent(text: text, to: destination)) }
        return OriginatedMessage(messageID: Self.messageID, sentTo: waits ? 0 : 1, heldFor: 0, waitingForKey: waits)
    }

    func lookup(_ node: NodeID, start: Bool) throws(ControlFailure) -> LookupReport {
        let polls = lookups.withLock { list in
            list.append((node, start))
            return list.filter { $0.node == node }.count
        }
        let known = node == Self.neighbourID || (node == Self.farID && polls > Self.lookupPollsToAnswer)
        let lookingUp = !known && (node == Self.farID || node == Self.lostID)
        return LookupReport(
            nodeID: node, known: known, neighbour: node == Self.neighbourID, name: known ? "Kitchen" : nil,
            hops: known ? (node == Self.neighbourID ? 1 : 5) : nil, lastHeardSecondsAgo: known ? 0.5 : nil,
            lookingUp: lookingUp, lookupSecondsAgo: lookingUp ? 0.2 : nil, waitingMessages: 0, timeoutSeconds: Self.lookupTimeout)
    }

    /// Message IDs `cancel` was asked for.
    let cancels = Mutex<[MessageID]>([])

    func cancel(_ messageID: MessageID) throws(ControlFailure) -> CancelReport {
        cancels.withLock { $0.append(messageID) }
        guard messageID == Self.messageID else { throw .unknownMessage(messageID.hex) }
        return CancelReport(messageID: messageID, nodeID: Self.farID, bytes: 3)
    }

    func mailbox() -> MailboxReport {
        MailboxReport(
            enabled: true, recipients: [], databaseBytes: 4096,
            waitingMessages: [MailboxReport.WaitingMessage(messageID: Self.messageID, nodeID: Self.lostID, bytes: 4, ageSeconds: 2, stored: true)])
    }

    func peers() -> PeersReport {
        let link = LinkReport(LinkInfo(id: LinkID(3), role: .central, remoteAddress: "127.0.0.1:7002", mtu: 185, rssi: -60), transport: "udp")
        let profile = Profile(nodeID: Self.neighbourID, displayName: "Kitchen", icon: "🍳", role: .person,
                              signingKey: [], agreementKey: [])
        return PeersReport(
            neighbours: [NeighbourReport(nodeID: Self.neighbourID, profile: profile, links: [link], lastHeardSecondsAgo: 1.5)],
            remote: [RemoteNodeReport(nodeID: Self.nodeID, name: nil, hops: 2, lastHeardSecondsAgo: 70)])
    }

    /// What `stats` returns instead of the fixed report, when set.
    let statsReport = Mutex<StatsReport?>(nil)

    func stats() -> StatsReport {
        if let report = statsReport.withLock({ $0 }) { return report }
        return StatsReport(uptimeSeconds: 3725, memory: MemoryReport(residentBytes: 12_582_912, peakResidentBytes: 16_777_216),
                    counters: ["message": ["relayed": 7, "delivered": 2], "control": ["requests": 1]])
    }

    func status() -> StatusReport {
        StatusReport(nodeID: Self.nodeID, name: "Hallway", transport: "udp", state: .running, uptimeSeconds: 61,
                     neighbourCount: 1, knownNodeCount: 2, version: "0.1.0")
    }

    func identity() -> IdentityReport {
        IdentityReport(nodeID: Self.nodeID, fingerprint: "0011 2233", signingKey: [4, 1], agreementKey: [4, 2])
    }

    func addWatcher(_ sink: @escaping @Sendable (WatchEvent) -> Void) -> UInt64 {
        state.withLock { state in
            state.next += 1
            state.watchers[state.next] = sink
            return state.next
        }
    }

    func removeWatcher(_ token: UInt64) {
        _ = state.withLock { $0.watchers.removeValue(forKey: token) }
    }

    /// Calls every watcher with the event.
    func emit(_ event: WatchEvent) {
        for sink in state.withLock({ Array($0.watchers.values) }) { sink(event) }
    }
}
