import Foundation
import MeshConfig
import MeshLink
import MeshNode
import MeshProtocol
import MeshTestSupport
import Synchronization
import Testing
@testable import MeshService

@Suite("logging")
struct LoggingTests {
    static let peer = NodeID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!
    static let node = NodeID(hex: "00112233445566778899aabbccddeeff")!
    static let message = MessageID(hex: "ffeeddccbbaa99887766554433221100")!

    @Test func journalFieldsCarryTheStructuredData() {
        let record = LogRecord(
            level: .notice, event: .messageRelayed, message: "relayed message",
            fields: LogFields(otherNode: Self.peer, kind: .message, hops: 2, messageID: Self.message, link: LinkID(7),
                              address: "127.0.0.1:7002", reason: nil),
            node: Self.node)
        #expect(LogFormat.journalFields(record, identifier: "meshnoded") == [
            "PRIORITY=5",
            "MESSAGE=relayed message",
            "MESSAGE_ID=c4600581eb5f4c8c86fabfa56a4c4c80",
            "SYSLOG_IDENTIFIER=meshnoded",
            "MESHNODE_NODE=00112233445566778899aabbccddeeff",
            "MESHNODE_PEER=a0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
            "MESHNODE_KIND=message",
            "MESHNODE_HOPS=2",
            "MESHNODE_MESSAGE_ID=ffeeddccbbaa99887766554433221100",
            "MESHNODE_LINK=7",
            "MESHNODE_ADDRESS=127.0.0.1:7002",
        ])
    }

    @Test("A record below the level filter never builds its message or fields")
    func filteredRecordsAreNotBuilt() {
        let built = Mutex(0)
        let written = Mutex<[String]>([])
        let logger = DaemonLogger(level: .info, destination: .custom { record in written.withLock { $0.append(record.message) } })
        func expensive(_ text: String) -> String {
            built.withLock { $0 += 1 }
            return text
        }
        logger.debug(.messageDropped, expensive("dropped"), LogFields(reason: expensive("seen")))
        #expect(built.withLock { $0 } == 0)
        logger.info(.messageRelayed, expensive("relayed"))
        #expect(built.withLock { $0 } == 1)
        #expect(written.withLock { $0 } == ["relayed"])
    }

    @Test func stderrLinesArePlainAndSafe() {
        let record = LogRecord(level: .warning, event: .handshakeFailed, message: "handshake failed\n\u{1b}[31mfake",
                               fields: LogFields(otherNode: Self.peer, reason: "timeout"))
        #expect(LogFormat.stderrLine(record) == "warning: handshake failed  [31mfake [peer=a0a1a2a3a4a5a6a7a8a9aaabacadaeaf reason=timeout]")
        #expect(LogFormat.sanitized(String(repeating: "é", count: 2000)).utf8.count == 2048)
    }

    @Test func messageIDsAreDistinct128BitHex() {
        let ids = LogEvent.allCases.map(\.messageID)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } })
    }

    @Test func operationsGuideListsEveryMessageID() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/OPERATIONS.md").standardizedFileURL
        let guide = try String(contentsOf: url, encoding: .utf8)
        for event in LogEvent.allCases {
            #expect(guide.contains("| `\(event.rawValue)` | `\(event.messageID)` |"), "OPERATIONS.md lacks \(event.rawValue)")
        }
    }

    @Test func levelFilterIsReloadable() {
        let records = Recorder<LogRecord>()
        let logger = DaemonLogger(level: .notice, destination: .custom { records.append($0) })
        logger.info(.general, "hidden")
        logger.notice(.general, "shown")
        logger.setLevel(.debug)
        logger.setNode(Self.node)
        logger.debug(.linkUp, "now shown", LogFields(link: LinkID(1)))
        logger.setLevel(.error)
        logger.warning(.general, "hidden again")
        #expect(records.all.map(\.message) == ["shown", "now shown"])
        #expect(records.all.last?.node == Self.node && records.all.last?.event == .linkUp)
        #expect(!logger.isEnabled(.warning) && logger.isEnabled(.error))
    }

    @Test("levels order by severity and map to syslog priorities", arguments: zip(LogLevel.allCases, [7, 6, 5, 4, 3]))
    func levels(_ level: LogLevel, _ priority: Int) {
        #expect(level.syslogPriority == priority)
        #expect(LogLevel.allCases.filter { $0 < level }.count == 7 - priority)
    }

    @Test("JOURNAL_STREAM matching", arguments: [
        ("8:12345", true), ("8:12346", false), ("9:12345", false), ("8:", false), ("x:1", false), ("812345", false), ("", false),
    ])
    func journalStream(_ value: String, _ matches: Bool) {
        #expect(JournalStream.matches(value, device: 8, inode: 12345) == matches)
    }

    @Test func journalIsNotDetectedWithoutTheVariable() {
        #expect(!JournalStream.stderrIsJournal(environment: nil))
        #expect(!JournalStream.stderrIsJournal(environment: "0:0"))
    }
}
