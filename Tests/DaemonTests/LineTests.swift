import ControlProtocol
import Foundation
import MeshService
import Testing

@Suite("meshnoded processes over loopback UDP", .serialized)
struct LineTests {
    @Test("Five nodes in a line: A's message reaches D (three hops) and not E")
    func fiveNodeLine() throws {
        let line = try LineOfNodes(count: 5)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        let sent = line.nodes[0].ctl("send", "hello along the line")
        #expect(sent.status == 0)
        #expect(MessageIDText.isValid(sent.out.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(eventually { line.counter(3, "message", "delivered") == 1 })
        // D received it with its hop budget spent: it must not relay, so E can never see it.
        #expect(line.counter(3, "message", "relayed") == 0)
        #expect(line.counter(1, "message", "delivered") == 1)
        #expect(line.counter(2, "message", "delivered") == 1)
        #expect(line.counter(2, "message", "relayed") == 1)
        #expect(line.counter(4, "message", "received") == 0)
        #expect(line.counter(4, "message", "delivered") == 0)
        let statuses = line.stop()
        #expect(statuses == [0, 0, 0, 0, 0])
    }

    @Test("A direct message is relayed opaque and shown only at its destination")
    func directMessage() throws {
        let line = try LineOfNodes(count: 3)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        let target = try #require(line.nodes[2].json(IdentityReport.self, "id"))
        // A learns C's keys from C's join notice, relayed by B.
        #expect(eventually { line.nodes[0].json(PeersReport.self, "peers")?.remote.contains { $0.nodeID == target.nodeID } == true })
        let sent = line.nodes[0].ctl("send", "--to", target.nodeID, "only for C")
        #expect(sent.status == 0, "\(sent.err)")
        #expect(eventually { line.counter(2, "message", "delivered") == 1 })
        #expect(line.counter(1, "message", "delivered") == 0)
        #expect(line.counter(1, "message", "relayed") == 1)
        #expect(line.nodes[1].log.contains("sealed, opaque"))
        #expect(!line.nodes[1].log.contains("only for C"))
    }

    @Test("A node that starts after the others still learns the keys of a node two hops away")
    func lateStarterLearnsTwoHopNode() throws {
        // B and C link first, so C's join notice is spent before A exists; C answers A's.
        let line = try LineOfNodes(count: 3, lateStarter: 0)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        let target = try #require(line.nodes[2].json(IdentityReport.self, "id"))
        #expect(eventually { line.nodes[0].json(PeersReport.self, "peers")?.remote.contains { $0.nodeID == target.nodeID } == true })
        let sent = line.nodes[0].ctl("send", "--to", target.nodeID, "late but known")
        #expect(sent.status == 0, "\(sent.err)")
        #expect(eventually { line.counter(2, "message", "delivered") == 1 })
    }
}

/// Checks the text form of message IDs.
enum MessageIDText {
    static func isValid(_ text: String) -> Bool {
        text.count == 32 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
