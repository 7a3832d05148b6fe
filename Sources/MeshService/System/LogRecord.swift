import ControlProtocol
import MeshConfig
import MeshLink
import MeshNode
import MeshProtocol

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
