import ControlProtocol
import Foundation
import Testing

@Suite("meshnoded with a wrong wall clock (libfaketime)", .serialized)
struct WrongClockDaemonTests {
    /// (libfaketime offset for B, mesh time minus B's clock in ms)
    @Test("A-B-C with B's clock wrong: A's, B's and C's broadcasts and A→C and C→A, 5 of 5 delivered",
          .enabled(if: FakeTime.available, "faketime is not installed (apt install faketime, or scripts/install-deps.sh)"),
          arguments: [("-10m", Int64(600_000)), ("-3d", Int64(3 * 86_400_000)), ("+2y", -Int64(2 * 365 * 86_400_000))])
    func wrongClockInTheMiddle(offset: String, behind: Int64) throws {
        let shim = try TemporaryFolder()
        defer { shim.remove() }
        let line = try LineOfNodes(count: 3, environments: [1: try FakeTime.environment(offset, shimFolder: shim.url)])
        defer {
            line.stop()
            FakeTime.removeSharedMemory(of: line.nodes[1].process.processIdentifier)
        }
        let linked = line.waitUntilLinked()
        #expect(linked, "not linked; B's log:\n\(line.nodes[1].log.suffix(3000))")
        let b = line.nodes[1]
        // B takes mesh time from A and C and says so once in its log.
        #expect(eventually(timeout: 10) { b.json(StatusReport.self, "status")?.clock?.synchronised == true })
        let clock = try #require(b.json(StatusReport.self, "status")?.clock)
        #expect(abs(clock.offsetMilliseconds - behind) < 5_000, "B's offset \(clock.offsetMilliseconds) ms, expected about \(behind)")
        #expect(b.log.contains("mesh time set: this clock is"))
        let ids = try (0..<3).map { try #require(line.nodes[$0].json(IdentityReport.self, "id")).nodeID }
        for (from, to) in [(0, 2), (2, 0)] {
            #expect(eventually { line.nodes[from].json(PeersReport.self, "peers")?.remote.contains { $0.nodeID == ids[to] } == true })
        }
        // Each message counts as delivered when every node it is for delivered it.
        let sends: [(from: Int, to: Int?, receivers: [Int])] = [(0, nil, [1, 2]), (1, nil, [0, 2]), (2, nil, [0, 1]), (0, 2, [2]), (2, 0, [0])]
        var expected = [0, 0, 0]
        var delivered = 0
        for send in sends {
            let result = send.to.map { line.nodes[send.from].ctl("send", "--to", ids[$0], "direct") }
                ?? line.nodes[send.from].ctl("send", "broadcast")
            #expect(result.status == 0, "\(result.err)")
            for receiver in send.receivers { expected[receiver] += 1 }
            let arrived = eventually(timeout: 5) {
                send.receivers.allSatisfy { line.counter($0, "message", "delivered") == UInt64(expected[$0]) }
            }
            if arrived {
                delivered += 1
            } else {
                let counts = (0..<3).map { line.counter($0, "message", "delivered") ?? 0 }
                print("B at \(offset): message from \(send.from) to \(send.to.map(String.init) ?? "all") missing; delivered counters \(counts), expected \(expected)")
            }
        }
        let stale = (0..<3).map { (line.counter($0, "message", "dropped_stale") ?? 99) + (line.counter($0, "join", "dropped_stale") ?? 99) }
        print("B at \(offset): \(delivered) of 5 delivered, B's offset \(clock.offsetMilliseconds) ms, stale drops \(stale)")
        #expect(delivered == 5)
        #expect(stale == [0, 0, 0])
        #expect(line.stop() == [0, 0, 0])
    }
}
