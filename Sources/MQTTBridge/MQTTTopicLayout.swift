import MeshProtocol

/// The bridge's topic tree (docs/PROTOCOL.md Part F, "Topics"): `<prefix>/<mesh>/broadcast`,
/// `<prefix>/<mesh>/join`, `<prefix>/<mesh>/direct/<node ID>`, `<prefix>/<mesh>/keyrequest` and
/// `<prefix>/<mesh>/keyanswer/<node ID>`, so several meshes share a broker and a gateway
/// subscribes to its own mesh alone.
public struct MQTTTopicLayout: Equatable, Sendable {
    /// The most characters of a prefix.
    public static let maxPrefixLength = 64
    /// The most characters of a mesh name.
    public static let maxMeshNameLength = 32
    /// The prefix when none is configured.
    public static let defaultPrefix = "relaychat/v1"

    /// One or more levels of `[A-Za-z0-9_-]`, separated by `/`.
    public let prefix: String
    /// One level of `[A-Za-z0-9_-]`.
    public let meshName: String

    /// Checks and keeps a prefix and mesh name.
    public init(prefix: String = Self.defaultPrefix, meshName: String) throws(MQTTTopicError) {
        let levels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard prefix.utf8.count <= Self.maxPrefixLength, levels.allSatisfy(Self.isLevel) else {
            throw .invalidPrefix(prefix)
        }
        guard meshName.utf8.count <= Self.maxMeshNameLength, Self.isLevel(Substring(meshName)) else {
            throw .invalidMeshName(meshName)
        }
        self.prefix = prefix
        self.meshName = meshName
    }

    /// `<prefix>/<mesh>`, the root of this mesh's topics.
    public var root: String { "\(prefix)/\(meshName)" }

    /// The length of the longest topic of the five forms, `<root>/keyanswer/<node ID>`.
    public var maxTopicLength: Int { root.utf8.count + "/keyanswer/".utf8.count + 2 * NodeID.byteCount }

    /// The filters a gateway subscribes to: the five forms of its own mesh.
    public var subscriptions: [String] {
        ["\(root)/broadcast", "\(root)/join", "\(root)/direct/+", "\(root)/keyrequest", "\(root)/keyanswer/+"]
    }

    /// The full topic for `topic`.
    public func name(of topic: MQTTTopic) -> String {
        switch topic {
        case .broadcast: "\(root)/broadcast"
        case .joinNotice: "\(root)/join"
        case .direct(let node): "\(root)/direct/\(node.hex)"
        case .keyRequest: "\(root)/keyrequest"
        case .keyAnswer(let requester): "\(root)/keyanswer/\(requester.hex)"
        }
    }

    /// Reads a received topic name; anything but the five forms under this root is refused.
    public func parse(_ name: String) throws(MQTTTopicError) -> MQTTTopic {
        let rootSlash = root + "/"
        guard name.utf8.count <= maxTopicLength, name.hasPrefix(rootSlash) else {
            throw .foreignTopic
        }
        let rest = name.dropFirst(rootSlash.count)
        switch rest {
        case "broadcast": return .broadcast
        case "join": return .joinNotice
        case "keyrequest": return .keyRequest
        default:
            if rest.hasPrefix("direct/") { return .direct(try Self.node(rest.dropFirst("direct/".count))) }
            if rest.hasPrefix("keyanswer/") { return .keyAnswer(try Self.node(rest.dropFirst("keyanswer/".count))) }
            throw .unknownTopic
        }
    }

    /// A node ID level: 32 hex digits, lowercase only, so one node has one topic.
    private static func node(_ hex: Substring) throws(MQTTTopicError) -> NodeID {
        guard hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }), let node = NodeID(hex: String(hex))
        else { throw .unknownTopic }
        return node
    }

    private static func isLevel(_ level: Substring) -> Bool {
        !level.isEmpty && level.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
                || byte == 0x5F
        }
    }
}
