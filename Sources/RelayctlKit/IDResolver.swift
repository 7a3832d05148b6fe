import ControlProtocol
import MeshProtocol

/// Turns what an operator typed for a node or a message into its full 32-hex-digit ID: the full
/// ID itself, a prefix of at least ``minimumPrefix`` hex digits that only one candidate has, or
/// a candidate's name. A pure value: the candidates come from `peers` (or `mailbox`), no socket.
public struct IDResolver: Sendable, Equatable {
    /// One node or message that can be named.
    public struct Candidate: Sendable, Equatable {
        /// Its full ID, 32 lowercase hex digits.
        public var id: String
        /// Its name, when it has one (nodes with a verified profile or a join notice).
        public var name: String?

        /// Creates a candidate; the ID is lowercased.
        public init(id: String, name: String? = nil) {
            self.id = id.lowercased()
            self.name = name
        }

        /// `699d2fae (Kitchen)`: the short form an error lists.
        public var label: String {
            let short = String(id.prefix(8))
            guard let name, !name.isEmpty else { return short }
            return "\(short) (\(PlainText.sanitized(name, maxBytes: 64)))"
        }
    }

    /// Fewer hex digits than this are never taken as a prefix (too likely to match by chance).
    public static let minimumPrefix = 4
    /// The hex digits of a full ID.
    public static let fullLength = 32

    /// What is named: `node` or `message`, for the errors.
    public var kind: String
    /// Who can be named.
    public var candidates: [Candidate]

    /// Creates a resolver over `candidates`, duplicates (by ID) dropped, first kept.
    public init(kind: String, candidates: [Candidate]) {
        self.kind = kind
        var seen = Set<String>()
        self.candidates = candidates.filter { seen.insert($0.id).inserted }
    }

    /// The nodes of a `peers` result: neighbours, then nodes further away.
    public init(peers: PeersReport) {
        self.init(
            kind: "node",
            candidates: peers.neighbours.map { Candidate(id: $0.nodeID, name: $0.name) }
                + peers.remote.map { Candidate(id: $0.nodeID, name: $0.name) })
    }

    /// The full ID when `text` is one (32 hex digits, any case), lowercased; nil otherwise.
    public static func fullID(_ text: String) -> String? {
        guard text.utf8.count == fullLength, NodeID(hex: text) != nil else { return nil }
        return text.lowercased()
    }

    /// The one full ID `text` names. A full ID is returned as it is, known or not; a hex prefix
    /// of 4 or more digits and a name (exactly, or else ignoring case) are matched against the
    /// candidates, and more than one match is an error listing them.
    public func resolve(_ text: String) throws(IDResolutionError) -> String {
        guard !text.isEmpty else { throw .empty(kind: kind) }
        if let full = Self.fullID(text) { return full }
        let isHex = text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0 | 0x20) }
        var matches: [Candidate] = []
        if isHex, text.utf8.count >= Self.minimumPrefix {
            let prefix = text.lowercased()
            matches = candidates.filter { $0.id.hasPrefix(prefix) }
        }
        var named = candidates.filter { $0.name == text }
        if named.isEmpty { named = candidates.filter { $0.name?.lowercased() == text.lowercased() } }
        for candidate in named where !matches.contains(candidate) { matches.append(candidate) }
        switch matches.count {
        case 1: return matches[0].id
        case 0:
            if isHex, text.utf8.count < Self.minimumPrefix { throw .tooShort(kind: kind, text: text) }
            throw .noMatch(kind: kind, text: text)
        default: throw .ambiguous(kind: kind, text: text, candidates: matches.map(\.label))
        }
    }
}

/// Why `IDResolver` could not name one node or message.
public enum IDResolutionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing was typed.
    case empty(kind: String)
    /// Hex digits, but fewer than `IDResolver.minimumPrefix`, and no name matched.
    case tooShort(kind: String, text: String)
    /// No ID starts with it and no name is it.
    case noMatch(kind: String, text: String)
    /// Several candidates match; their short IDs and names.
    case ambiguous(kind: String, text: String, candidates: [String])

    /// The message relayctl prints.
    public var description: String {
        switch self {
        case .empty(let kind): "the \(kind) is empty; give its ID, a prefix of 4 or more hex digits, or its name"
        case .tooShort(let kind, let text):
            "'\(PlainText.sanitized(text, maxBytes: 64))' is too short: a \(kind) ID prefix needs at least \(IDResolver.minimumPrefix) hex digits"
        case .noMatch(let kind, let text):
            "no known \(kind) has an ID starting with or a name of '\(PlainText.sanitized(text, maxBytes: 64))'"
                + (kind == "node" ? " (relayctl peers lists them; a full 32-hex-digit ID works for any node)" : " (relayctl mailbox lists them)")
        case .ambiguous(let kind, let text, let candidates):
            "'\(PlainText.sanitized(text, maxBytes: 64))' matches \(candidates.count) \(kind)s: \(candidates.joined(separator: ", ")); type more of the ID"
        }
    }
}
