import Fragmenter
import MeshLink
import MeshProtocol

/// The engine's links as one value that owns their state: each link's handshake, keys, frame
/// sender and acknowledgements (``LinkState``), reassembly per link, link admission
/// (``LinkAdmission``) and the link counters. The engine asks it which links are due for what,
/// and performs what that means.
struct EngineLinks {
    /// Counters of links, handshakes and seals.
    private(set) var counters = LinkCounters()
    private var states: [LinkID: LinkState] = [:]
    private var reassemblers: LinkReassemblers<LinkID>
    private var admission: LinkAdmission

    /// Creates an empty set of links.
    init(fragmenterLimits: FragmenterLimits, admission limits: LinkAdmissionLimits) {
        reassemblers = LinkReassemblers(limits: fragmenterLimits)
        admission = LinkAdmission(limits: limits)
    }

    /// Adds `amount` to one of the link counters.
    mutating func increment(_ counter: WritableKeyPath<LinkCounters, UInt64>, by amount: UInt64 = 1) {
        counters[keyPath: counter] += amount
    }

    /// A link's state (a copy), or nil when there is no such link.
    subscript(link: LinkID) -> LinkState? { states[link] }

    /// True when `link` is open.
    func contains(_ link: LinkID) -> Bool { states.index(forKey: link) != nil }

    /// How many links are open.
    var count: Int { states.count }

    /// Every open link's ID, sorted.
    var sortedIDs: [LinkID] { states.keys.sorted() }

    /// Every open link's state, in no order.
    var all: Dictionary<LinkID, LinkState>.Values { states.values }

    /// Runs `body` on a link's state in place; nil when there is no such link. Through
    /// `Dictionary.Values` the state is mutated where it lives: `states[link]?.mutate()` moves it
    /// into an optional and back, and `states[link]?.field` copies all of it first (a retain and
    /// a release of each of its references), several times per frame on the relay path.
    mutating func withLink<Result, Failure: Error>(
        _ link: LinkID, _ body: (inout LinkState) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard let index = states.index(forKey: link) else { return nil }
        return try body(&states.values[index])
    }

    /// Admits a new link (``LinkAdmission``): whether it may start, and which links it evicts.
    mutating func admit(_ info: LinkInfo, now: Duration) -> LinkAdmission.Decision {
        admission.admit(info.id, address: info.remoteAddress, host: info.admissionAddress, now: now)
    }

    /// Adds an admitted link's state.
    mutating func open(_ state: LinkState) { states[state.info.id] = state }

    /// Puts back a state taken out with the subscript and changed.
    mutating func update(_ state: LinkState) {
        guard let index = states.index(forKey: state.info.id) else { return }
        states.values[index] = state
    }

    /// Removes a link: its state, its reassembly and its admission entry. Returns the state it
    /// had, or nil when it was not open.
    mutating func remove(_ link: LinkID) -> LinkState? {
        admission.removed(link)
        guard let state = states.removeValue(forKey: link) else { return nil }
        reassemblers.removeLink(link)
        return state
    }

    /// Notes that a stranger's link got keys: it no longer counts against the unkeyed budget.
    mutating func keyed(_ link: LinkID, address: String, now: Duration) { admission.keyed(link, address: address, now: now) }

    /// Strangers' links without keys by the key deadline, oldest first.
    mutating func pastKeyDeadline(now: Duration) -> [LinkID] { admission.overdue(now: now) }

    /// Counters of link admission.
    var admissionCounters: AdmissionCounters { admission.counters }

    /// Hands a frame to its link's reassembler.
    mutating func reassemble(_ frame: [UInt8], on link: LinkID, now: Duration) throws(FragmentError) -> ReassemblyResult {
        try reassemblers.receive(frame, on: link, now: now)
    }

    /// Drops transfers past their timeout.
    mutating func expireTransfers(now: Duration) { reassemblers.expire(now: now) }

    /// Counters of reassembly on every link.
    var fragmenterCounters: FragmenterCounters { reassemblers.counters }

    /// Bytes of partial messages held by the reassemblers.
    var bufferedFragmentBytes: Int { reassemblers.bufferedBytes }

    /// Links whose opening waited for an MTU exchange that is now over, sorted.
    func openingsDue(now: Duration) -> [LinkID] {
        sortedIDs { $0.openingDue.map { $0 <= now } ?? false }
    }

    /// Links not ready `timeout` after they opened, sorted.
    func stalled(now: Duration, timeout: Duration) -> [LinkID] {
        sortedIDs { $0.phase != .ready && now - $0.openedAt >= timeout }
    }

    /// Links not ready whose last handshake step went at least `interval` ago, sorted.
    func awaitingRetry(now: Duration, interval: Duration) -> [LinkID] {
        sortedIDs { $0.phase != .ready && $0.openingDue == nil && now - $0.handshakeSentAt >= interval }
    }

    /// Keyed links whose keys are due for renewal, sorted.
    func dueForRekey(now: Duration) -> [LinkID] {
        sortedIDs { state in
            guard let keyed = state.keyed else { return false }
            return state.handshake.needsRekey(messagesSent: keyed.session.messagesSent, now: now)
        }
    }

    /// The links whose state matches, sorted. Each state is read where it lives: a `filter` over
    /// the values copies every match (a retain and a release of each of its references), and
    /// every tick asks four times.
    private func sortedIDs(where matches: (LinkState) -> Bool) -> [LinkID] {
        var ids: [LinkID] = []
        var index = states.values.startIndex
        while index != states.values.endIndex {
            if matches(states.values[index]) { ids.append(states.keys[index]) }
            states.values.formIndex(after: &index)
        }
        return ids.sorted()
    }

    /// The neighbours at the other end of keyed links.
    var neighbours: [NodeID] { states.values.compactMap(\.neighbour) }
}
