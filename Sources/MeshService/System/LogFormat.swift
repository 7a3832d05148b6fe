import ControlProtocol
import MeshLink
import MeshNode
import MeshProtocol

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
