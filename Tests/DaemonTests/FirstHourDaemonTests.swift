import ControlProtocol
import Foundation
import Testing

/// Issue 33 against real processes: doctor on a UDP node run by hand, a reload that cannot apply
/// a port, socket errors that say what to do, --version and --print-config.
@Suite("first hour: meshnoded and relayctl as an operator meets them")
struct FirstHourDaemonTests {
    /// A UDP node whose state directory meshnoded creates itself, as on a first start by hand.
    private func startNode(_ folder: TemporaryFolder, extra: [String] = []) throws -> (DaemonProcess, String) {
        let port = Ports.block(of: 1)
        let node = try DaemonProcess(name: "n", folder: folder.url, port: port,
                                     extra: ["--state-directory", folder.url.path + "/n/state"] + extra)
        try node.start()
        #expect(eventually { node.json(StatusReport.self, "status")?.state == "running" }, "\(node.log)")
        return (node, folder.url.path + "/n/state")
    }

    @Test("doctor asks the daemon: a UDP node run by hand has no FAIL, Bluetooth and the unit are skipped")
    func doctorOnAUDPNode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (node, state) = try startNode(folder)
        defer { _ = node.terminate() }
        let result = node.ctl("doctor")
        #expect(result.status != 78 && !result.out.contains("FAIL"), "\(result.out)\(result.err)")
        #expect(result.out.contains("SKIP  bluetoothd       not used: meshnoded runs on udp"), "\(result.out)")
        #expect(result.out.contains("SKIP  unit             meshnoded runs by hand (pid \(node.process.processIdentifier)"))
        #expect(result.out.contains("OK    state-directory  \(state) mode 700"), "\(result.out)")
        // What may still warn is this machine's clock, never the node's set-up.
        for line in result.out.split(separator: "\n") where line.hasPrefix("WARN") {
            #expect(line.hasPrefix("WARN  clock") || line.hasPrefix("WARN  mesh-clock"), "\(line)")
        }
    }

    @Test("a changed [udp] port and SIGHUP log 'restart needed for: udp.port'; status shows it and a refused reload")
    func reloadSaysWhatWaits() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = Ports.block(of: 2)
        let config = folder.url.appendingPathComponent("meshnoded.conf")
        let file = { (port: UInt16, extra: String) in
            "[node]\nstate_directory = \(folder.url.path)/state\nruntime_directory = \(folder.url.path)\n"
                + "[transport]\nkind = udp\n[udp]\nport = \(port)\n" + extra
        }
        try file(port, "").write(to: config, atomically: true, encoding: .utf8)
        // Only --config: every setting comes from the file, as under the unit.
        let node = Process()
        node.executableURL = Binaries.meshnoded
        node.arguments = ["--config", config.path]
        let log = folder.url.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        node.standardError = try FileHandle(forWritingTo: log)
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = nil
        environment["INVOCATION_ID"] = nil
        node.environment = environment
        try node.run()
        defer {
            kill(node.processIdentifier, SIGTERM)
            node.waitUntilExit()
        }
        let socket = folder.url.path + "/control.sock"
        let logText = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        let status = { () -> StatusReport? in
            let result = Relayctl.run(["--socket", socket, "--json", "status"])
            return result.status == 0 ? try? JSONDecoder().decode(StatusReport.self, from: Data(result.out.utf8)) : nil
        }
        #expect(eventually { status()?.state == "running" }, "\(logText())")
        let before = try #require(status())
        #expect(before.configFile == config.path && before.restartNeededFor == nil && before.systemd == false)
        try file(port + 1, "").write(to: config, atomically: true, encoding: .utf8)
        kill(node.processIdentifier, SIGHUP)
        #expect(eventually { logText().contains("restart needed for: udp.port") }, "\(logText())")
        let after = try #require(status())
        #expect(after.restartNeededFor == ["udp.port"] && after.health == "degraded")
        #expect(Relayctl.run(["--socket", socket, "status"]).out.contains("reload       restart needed for: udp.port\n"))
        try file(port + 1, "bogus\n").write(to: config, atomically: true, encoding: .utf8)
        kill(node.processIdentifier, SIGHUP)
        #expect(eventually { status()?.reloadError?.contains(":8:") == true }, "\(logText())")
        #expect(Relayctl.run(["--socket", socket, "status"]).out.contains("last reload refused: \(config.path):8:"))
    }

    @Test("socket errors say what to do: no daemon, a directory, --version")
    func socketErrorsAndVersion() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = Relayctl.run(["--socket", folder.url.path + "/none.sock", "status"])
        #expect(missing.status == 69 && missing.err.contains("is meshnoded running? systemctl status meshnoded"), "\(missing.err)")
        let directory = Relayctl.run(["--socket", folder.url.path, "status"])
        #expect(directory.status == 69 && directory.err.contains("is a directory, not the socket"), "\(directory.err)")
        #expect(Relayctl.run(["--version"]).out == "relayctl \(ProductVersion.current) (mesh protocol 1)\n")
        let daemon = Process()
        daemon.executableURL = Binaries.meshnoded
        daemon.arguments = ["--version"]
        let pipe = Pipe()
        daemon.standardOutput = pipe
        try daemon.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        daemon.waitUntilExit()
        #expect(out == "meshnoded \(ProductVersion.current) (mesh protocol 1)\n")
    }

    @Test("peers shows a neighbour in its departure grace as departing, and status says degraded: no neighbours")
    func departingNeighbour() throws {
        let line = try LineOfNodes(count: 2)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        #expect(line.nodes[0].json(StatusReport.self, "status")?.health == "ok")
        // SIGSTOP: the link times out (1 s) and the neighbour is kept for its grace.
        #expect(line.nodes[1].process.suspend())
        #expect(eventually { line.nodes[0].json(PeersReport.self, "peers")?.neighbours.first?.state == "departing" })
        #expect(line.nodes[0].ctl("peers").out.contains(" departing "))
        let status = try #require(line.nodes[0].json(StatusReport.self, "status"))
        #expect(status.health == "degraded" && status.healthReasons == ["no neighbours"])
        #expect(line.nodes[0].ctl("status").out.hasPrefix("health       degraded: no neighbours\n"))
        #expect(line.nodes[1].process.resume())
    }
}
