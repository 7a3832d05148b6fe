import CSystemd
import Glibc
import MeshConfig
import MeshProtocol
import Synchronization

/// The daemon's logger: structured journald records or plain stderr lines, with a level filter
/// that `setLevel` changes at run time (for example on SIGHUP).
public final class DaemonLogger: Sendable {
    private struct State {
        var level: LogLevel
        var node: NodeID?
    }

    /// `SYSLOG_IDENTIFIER`, and the stderr prefix.
    public let identifier: String
    private let destination: LogDestination
    private let state: Mutex<State>

    /// Creates a logger.
    public init(identifier: String = "meshnoded", level: LogLevel = .info, destination: LogDestination = .automatic()) {
        self.identifier = identifier
        self.destination = destination
        state = Mutex(State(level: level))
    }

    /// The least severe level written now.
    public var level: LogLevel { state.withLock { $0.level } }

    /// Changes the level filter.
    public func setLevel(_ level: LogLevel) { state.withLock { $0.level = level } }

    /// Sets this node's ID, added to every record as `MESHNODE_NODE`.
    public func setNode(_ node: NodeID) { state.withLock { $0.node = node } }

    /// True when records of `level` are written; check it before building costly messages.
    public func isEnabled(_ level: LogLevel) -> Bool { level >= self.level }

    /// Writes one record if its level passes the filter. Never pass chat text in `message`.
    /// The message and the fields are built only when the record is written (as swift-log's
    /// `@autoclosure` messages are), so a debug line costs nothing at `info`.
    public func log(
        _ level: LogLevel, _ event: LogEvent, _ message: @autoclosure () -> String,
        _ fields: @autoclosure () -> LogFields = LogFields()
    ) {
        let (threshold, node) = state.withLock { ($0.level, $0.node) }
        guard level >= threshold else { return }
        let record = LogRecord(level: level, event: event, message: message(), fields: fields(), node: node)
        switch destination {
        case .journal: sendToJournal(record)
        case .stderr: writeToStderr(record)
        case .custom(let sink): sink(record)
        }
    }

    /// Logs at debug level.
    public func debug(_ event: LogEvent, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> LogFields = LogFields()) {
        log(.debug, event, message(), fields())
    }
    /// Logs at info level.
    public func info(_ event: LogEvent, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> LogFields = LogFields()) {
        log(.info, event, message(), fields())
    }
    /// Logs at notice level.
    public func notice(_ event: LogEvent, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> LogFields = LogFields()) {
        log(.notice, event, message(), fields())
    }
    /// Logs at warning level.
    public func warning(_ event: LogEvent, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> LogFields = LogFields()) {
        log(.warning, event, message(), fields())
    }
    /// Logs at error level.
    public func error(_ event: LogEvent, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> LogFields = LogFields()) {
        log(.error, event, message(), fields())
    }

    private func sendToJournal(_ record: LogRecord) {
        let fields = LogFormat.journalFields(record, identifier: identifier).map { Array($0.utf8) }
        let joined = fields.flatMap { $0 }
        joined.withUnsafeBufferPointer { buffer in
            var vectors: [iovec] = []
            var offset = 0
            for field in fields {
                vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + offset), iov_len: field.count))
                offset += field.count
            }
            if sd_journal_sendv(vectors, Int32(vectors.count)) < 0 { writeToStderr(record) }
        }
    }

    private func writeToStderr(_ record: LogRecord) {
        let line = Array("\(identifier): \(LogFormat.stderrLine(record))\n".utf8)
        line.withUnsafeBytes { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
