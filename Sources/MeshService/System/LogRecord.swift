import ControlProtocol
import MeshLink
import MeshNode
import MeshProtocol

/// Structured fields of a log record; each becomes a `MESHNODE_*` journal field.
///
/// There is deliberately no field for chat text: message contents never reach the logs.
public struct LogFields: Equatable, Sendable {
    /// The other node involved (`MESHNODE_PEER`).
    public var peer: NodeID?
    /// The envelope kind (`MESHNODE_KIND`).
    public var kind: MessageKind?
    /// Hops so far (`MESHNODE_HOPS`).
    public var hops: Int?
    /// The message ID (`MESHNODE_MESSAGE_ID`), to follow one message through the mesh.
    public var messageID: MessageID?
    /// The transport link (`MESHNODE_LINK`).
    public var link: LinkID?
    /// A remote transport address (`MESHNODE_ADDRESS`).
    public var address: String?
    /// A short machine-readable reason (`MESHNODE_REASON`), such as `duplicate` or `timeout`.
    public var reason: String?

    /// Creates fields; leave out what does not apply.
    public init(
        peer: NodeID? = nil, kind: MessageKind? = nil, hops: Int? = nil, messageID: MessageID? = nil,
        link: LinkID? = nil, address: String? = nil, reason: String? = nil
    ) {
        self.peer = peer
        self.kind = kind
        self.hops = hops
        self.messageID = messageID
        self.link = link
        self.address = address
        self.reason = reason
    }

    /// The fields as `(NAME, value)` pairs, in a fixed order.
    public var pairs: [(String, String)] {
        var pairs: [(String, String)] = []
        if let peer { pairs.append(("MESHNODE_PEER", peer.hex)) }
        if let kind { pairs.append(("MESHNODE_KIND", kind.description)) }
        if let hops { pairs.append(("MESHNODE_HOPS", String(hops))) }
        if let messageID { pairs.append(("MESHNODE_MESSAGE_ID", messageID.hex)) }
        if let link { pairs.append(("MESHNODE_LINK", String(link.rawValue))) }
        if let address { pairs.append(("MESHNODE_ADDRESS", address)) }
        if let reason { pairs.append(("MESHNODE_REASON", reason)) }
        return pairs
    }
}

/// One log record before formatting.
public struct LogRecord: Equatable, Sendable {
    /// How important it is.
    public var level: LogLevel
    /// What kind of record it is (sets `MESSAGE_ID`).
    public var event: LogEvent
    /// The human-readable line; never chat text.
    public var message: String
    /// Structured fields.
    public var fields: LogFields
    /// This node's ID (`MESHNODE_NODE`), once known.
    public var node: NodeID?

    /// Creates a record.
    public init(level: LogLevel, event: LogEvent, message: String, fields: LogFields = LogFields(), node: NodeID? = nil) {
        self.level = level
        self.event = event
        self.message = message
        self.fields = fields
        self.node = node
    }
}

/// Formats records for journald and for plain stderr.
public enum LogFormat {
    /// The journal fields, each `NAME=value`, in the order they are sent.
    public static func journalFields(_ record: LogRecord, identifier: String) -> [String] {
        var fields = [
            "PRIORITY=\(record.level.syslogPriority)",
            "MESSAGE=\(sanitized(record.message))",
            "MESSAGE_ID=\(record.event.messageID)",
            "SYSLOG_IDENTIFIER=\(identifier)",
        ]
        if let node = record.node { fields.append("MESHNODE_NODE=\(node.hex)") }
        for (name, value) in record.fields.pairs { fields.append("\(name)=\(sanitized(value))") }
        return fields
    }

    /// One plain line for stderr: `warning: message [peer=… kind=… …]`, no trailing newline.
    public static func stderrLine(_ record: LogRecord) -> String {
        var line = "\(record.level): \(sanitized(record.message))"
        let pairs = record.fields.pairs.map { name, value in
            "\(name.dropFirst("MESHNODE_".count).lowercased())=\(sanitized(value))"
        }
        if !pairs.isEmpty { line += " [" + pairs.joined(separator: " ") + "]" }
        return line
    }

    /// The text with control characters replaced by spaces, at most `maxBytes` bytes (`PlainText`).
    public static func sanitized(_ text: String, maxBytes: Int = 2048) -> String {
        PlainText.sanitized(text, maxBytes: maxBytes)
    }
}
