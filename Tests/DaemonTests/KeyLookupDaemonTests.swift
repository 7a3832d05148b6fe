import ControlProtocol
import Foundation
import Testing

@Suite("Key lookup between real daemons over loopback UDP (PROTOCOL.md Part H)", .serialized)
struct KeyLookupDaemonTests {
    @Test("Seven nodes in a line: A writes to G, whose key it never heard; the key is looked up and G gets it exactly once")
    func lineOfSeven() throws {
        // Messages may travel 6 hops here (the default is 3); key requests and answers 7 by default.
        let line = try LineOfNodes(count: 7, extra: ["--relay.ttl.message", "6"])
        defer { line.stop() }
        #expect(line.waitUntilLinked(timeout: 40))
        let a = line.nodes[0]
        let g = try #require(line.nodes[6].json(IdentityReport.self, "id"))
        // G's join notice travels two hops: A is six away and has not heard of G.
        #expect(a.json(PeersReport.self, "peers")?.remote.contains { $0.nodeID == g.nodeID } == false)
        let started = Date()
        let sent = a.ctl("send", "--to", g.nodeID, "six hops to G")
        let seconds = Date().timeIntervalSince(started)
        #expect(sent.status == 0, "\(sent.err)")
        #expect(sent.err.contains("key found"), "\(sent.err)")
        #expect(MessageIDText.isValid(sent.out.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(eventually(timeout: 10) { line.counter(6, "message", "delivered") == 1 })
        // Exactly once: nothing more arrives in the next 3 s.
        Thread.sleep(forTimeInterval: 3)
        #expect(line.counter(6, "message", "delivered") == 1)
        #expect(line.counter(0, "lookup", "found") == 1)
        // With a mailbox the message waits in its database and goes out when the key comes (H4).
        #expect(line.counter(0, "outbox", "sent") == 1)
        let answers = (0..<7).compactMap { line.counter($0, "lookup", "answers_sent") }.reduce(0, +)
        #expect(answers >= 1 && answers <= 2, "\(answers) answers")
        let lookup = a.ctl("--json", "lookup", g.nodeID)
        let report = try JSONDecoder().decode(LookupReport.self, from: Data(lookup.out.utf8))
        #expect(lookup.status == 0 && report.known && !report.neighbour)
        print("line of 7: relayctl send to G returned after \(String(format: "%.2f", seconds)) s; \(answers) answer(s)")
    }
}
