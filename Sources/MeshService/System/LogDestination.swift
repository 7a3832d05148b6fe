import CSystemd
import Glibc
import MeshProtocol
import Synchronization

/// Where log records go.
public enum LogDestination: Sendable {
    /// journald, with structured fields, through `sd_journal_sendv`.
    case journal
    /// Plain lines on stderr.
    case stderr
    /// A closure (tests, or a daemon that forwards records).
    case custom(@Sendable (LogRecord) -> Void)

    /// journald when stderr is the journal stream (`JOURNAL_STREAM`), stderr otherwise.
    public static func automatic(
        environment: [String: String] = ["JOURNAL_STREAM": getenv("JOURNAL_STREAM").map { String(cString: $0) }].compactMapValues { $0 }
    ) -> LogDestination {
        JournalStream.stderrIsJournal(environment: environment["JOURNAL_STREAM"]) ? .journal : .stderr
    }
}
