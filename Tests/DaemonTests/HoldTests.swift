import ControlProtocol
import Foundation
import MeshService
import Testing

@Suite("meshnoded holds messages for a neighbour whose link is down", .serialized)
struct HoldTests {
    @Test("A message relayed while C is frozen reaches C once its link is back")
    func heldAcrossAnOutage() throws {
        let line = try LineOfNodes(count: 3)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        // SIGSTOP: C neither answers nor closes, as a phone whose radio went quiet. B's link
        // to C times out (1 s) and C enters its departure grace at B.
        #expect(line.nodes[2].process.suspend())
        #expect(eventually { line.nodes[1].json(StatusReport.self, "status")?.neighbourCount == 1 })
        let sent = line.nodes[0].ctl("send", "while C sleeps")
        #expect(sent.status == 0, "\(sent.err)")
        #expect(eventually { (line.counter(1, "hold", "held") ?? 0) >= 1 })
        #expect(line.nodes[2].process.resume())
        #expect(eventually { line.counter(2, "message", "delivered") == 1 })
        #expect((line.counter(1, "hold", "sent_late") ?? 0) >= 1)
        #expect(line.stop() == [0, 0, 0])
    }

    @Test("send with no neighbour at all refuses with no_neighbours and exit code 65")
    func noNeighbours() throws {
        let line = try LineOfNodes(count: 1)
        defer { line.stop() }
        #expect(eventually { line.nodes[0].json(StatusReport.self, "status") != nil })
        let sent = line.nodes[0].ctl("send", "anyone?")
        #expect(sent.status == 65)
        #expect(sent.err.contains("no_neighbours"), "\(sent.err)")
    }
}
