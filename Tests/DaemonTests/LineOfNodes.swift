import ControlProtocol
import Foundation
import MeshService

/// N meshnoded processes in a line, each listing the previous one as its neighbour.
final class LineOfNodes {
    let folder: TemporaryFolder
    let nodes: [DaemonProcess]

    /// Starts `count` nodes; `lateStarter`, if given, starts only once every other node has a neighbour;
    /// `environments` adds environment variables to some nodes' processes, by index (those are
    /// started through `/bin/sh`, see `DaemonProcess`).
    init(count: Int, extra: [String] = [], lateStarter: Int? = nil, environments: [Int: [String: String]] = [:]) throws {
        folder = try TemporaryFolder()
        let base = Ports.block(of: count)
        var nodes: [DaemonProcess] = []
        for index in 0..<count {
            let name = String(UnicodeScalar(UInt8(65 + index)))
            nodes.append(try DaemonProcess(
                name: name, folder: folder.url, port: base + UInt16(index),
                neighbours: index == 0 ? [] : [base + UInt16(index - 1)], extra: extra,
                environment: environments[index] ?? [:], throughShell: environments[index] != nil))
        }
        self.nodes = nodes
        for (index, node) in nodes.enumerated() where index != lateStarter { try node.start() }
        if let lateStarter {
            let others = nodes.indices.filter { $0 != lateStarter }
            guard eventually(timeout: 20, { others.allSatisfy { (nodes[$0].json(StatusReport.self, "status")?.neighbourCount ?? 0) >= 1 } })
            else { throw LineError.earlyNodesNeverLinked }
            try nodes[lateStarter].start()
        }
    }

    /// Why a line could not be set up.
    enum LineError: Error {
        /// The nodes started first never found each other.
        case earlyNodesNeverLinked
    }

    /// Waits until every node has its neighbours (1 at the ends, 2 inside).
    func waitUntilLinked(timeout: Double = 20) -> Bool {
        eventually(timeout: timeout) {
            nodes.indices.allSatisfy { index in
                let expected = (index == 0 || index == nodes.count - 1) ? 1 : 2
                return (nodes[index].json(StatusReport.self, "status")?.neighbourCount ?? 0) >= min(expected, nodes.count - 1)
            }
        }
    }

    /// A counter from `relayctl --json stats`.
    func counter(_ node: Int, _ group: String, _ name: String) -> UInt64? {
        nodes[node].json(StatsReport.self, "stats")?.counters[group]?[name]
    }

    /// Stops every node and removes the folder; returns each exit status.
    @discardableResult
    func stop() -> [Int32] {
        defer { folder.remove() }
        return nodes.map { $0.process.isRunning ? $0.terminate().status : $0.process.terminationStatus }
    }
}
