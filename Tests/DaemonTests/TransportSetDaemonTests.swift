import ControlProtocol
import Foundation
import MeshTestSupport
import Testing

/// Two islands that cannot reach each other, and one node that runs two UDP transports at once
/// (`transport = udp, lan`), one into each island; its LAN transport runs on the interface `lo`.
@Suite("meshnoded with several transports at once", .serialized)
struct TransportSetDaemonTests {
    @Test("A node on udp and lan joins two islands: a message crosses from one transport to the other exactly once")
    func twoTransportsBridgeTwoIslands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = Ports.block(of: 4)
        let (portA, portB, portBLAN, portC) = (base, base + 1, base + 2, base + 3)
        let fast = ["--lan.keepalive_interval", "200ms", "--lan.link_timeout", "1s", "--lan.connect_interval", "200ms"]
        // A and C dial no one and know no one's port: only B's two transports reach them.
        let a = try DaemonProcess(name: "A", folder: folder.url, port: portA)
        let b = try DaemonProcess(
            name: "B", folder: folder.url, port: portB, neighbours: [portA],
            extra: ["--transport", "udp,lan", "--lan.interface", "lo", "--lan.port", "\(portBLAN)", "--lan.peers", "127.0.0.1:\(portC)"] + fast)
        let c = try DaemonProcess(name: "C", folder: folder.url, port: portC)
        let nodes = [a, b, c]
        defer { for node in nodes where node.process.isRunning { _ = node.terminate() } }
        for node in nodes { try node.start() }
        let neighbours = { (node: DaemonProcess) in node.json(StatusReport.self, "status")?.neighbourCount ?? 0 }
        #expect(eventually(timeout: 20) { neighbours(a) == 1 && neighbours(b) == 2 && neighbours(c) == 1 },
                "B: \(b.log.suffix(2000))")
        #expect(b.json(StatusReport.self, "status")?.transport == "udp,lan")

        // B names each link's transport: A's on udp, C's on lan.
        let peers = try #require(b.json(PeersReport.self, "peers"))
        let idA = try #require(a.json(IdentityReport.self, "id")).nodeID
        let idC = try #require(c.json(IdentityReport.self, "id")).nodeID
        let transports = { (id: String) in Set(peers.neighbours.first { $0.nodeID == id }?.links.compactMap(\.transport) ?? []) }
        #expect(transports(idA) == ["udp"] && transports(idC) == ["lan"])
        #expect(b.ctl("peers").out.contains("lan #"))

        let sent = a.ctl("send", "across two transports")
        #expect(sent.status == 0, "\(sent.err)")
        let counter = { (node: DaemonProcess, group: String, name: String) in
            node.json(StatsReport.self, "stats")?.counters[group]?[name]
        }
        #expect(eventually { counter(c, "message", "delivered") == 1 })
        #expect(counter(c, "message", "received") == 1 && counter(c, "message", "dropped_seen") == 0)
        #expect(counter(b, "message", "delivered") == 1)
        #expect(counter(b, "message", "relayed") == 1)
        #expect(counter(a, "message", "received") == 0)

        // stats: the sum under `transport`, and each transport's own group.
        let stats = try #require(b.json(StatsReport.self, "stats"))
        let udp = try #require(stats.counters["transport_udp"])
        let lan = try #require(stats.counters["transport_lan"])
        #expect((udp["links_up"] ?? 0) >= 1 && (lan["links_up"] ?? 0) >= 1)
        #expect((udp["frames_received"] ?? 0) >= 1 && (lan["frames_sent"] ?? 0) >= 1)
        #expect(stats.counters["transport"]?["links_up"] == (udp["links_up"] ?? 0) + (lan["links_up"] ?? 0))
        #expect(a.json(StatsReport.self, "stats")?.counters["transport_udp"] == nil)  // one transport: no extra group

        // The extra groups are metrics by the mechanical rule, which scripts/check-metrics.py checks.
        let before = b.ctl("--json", "stats")
        let metrics = b.ctl("stats", "--openmetrics")
        let after = b.ctl("--json", "stats")
        #expect(metrics.out.contains("meshnode_transport_lan_links_up_total "), "\(metrics.out.prefix(500))")
        let paths = ["before.json", "metrics.txt", "after.json"].map { folder.url.appendingPathComponent($0).path }
        for (path, text) in zip(paths, [before.out, metrics.out, after.out]) {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let check = try MetricsCheck.run(dialect: "openmetrics", files: paths)
        #expect(check.status == 0 && check.output.contains("expected, 0 problems"), "check-metrics.py: \(check.output)")

        #expect(nodes.map { $0.terminate().status } == [0, 0, 0])
    }

    @Test("A LAN transport whose interface is missing, or whose peer lies outside its subnet, waits; the node runs degraded",
          arguments: [(["--lan.interface", "nosuch0"], "lan: waiting for nosuch0: there is no interface nosuch0 (retry in "),
                      (["--lan.interface", "lo", "--lan.peers", "192.168.1.5:7101"],
                       "lan: waiting for lo: peer 192.168.1.5:7101 is outside lo's subnet 127.0.0.0/8 (retry in ")])
    func missingInterfaceWaits(_ flags: [String], _ reason: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = Ports.block(of: 2)
        let node = try DaemonProcess(name: "B", folder: folder.url, port: base,
                                     extra: ["--transport", "udp,lan", "--lan.port", "\(base + 1)"] + flags)
        defer { if node.process.isRunning { _ = node.terminate() } }
        try node.start()
        #expect(eventually { node.json(StatusReport.self, "status")?.state == "running" }, "\(node.log.suffix(1000))")
        let status = try #require(node.json(StatusReport.self, "status"))
        #expect(status.health == "degraded")
        #expect(status.healthReasons?.first?.hasPrefix(reason) == true, "\(status.healthReasons ?? [])")
        #expect(node.terminate().status == 0)
    }
}
