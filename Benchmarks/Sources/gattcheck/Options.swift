import Foundation
import GATTBridge
import MeshLink

/// Command-line options of gattcheck.
struct Options {
    var adapter = "hci0", name = "", duration = 60.0, interval = 1.0, expect = 1
    var allow: Set<String> = [], deny: Set<String> = []
    /// Frame sizes to cycle through instead of alternating short and full frames.
    var sizes: [Int] = []
    /// The ATT write our frames go out as (`--write-type request|command`).
    var writeType = GATTWriteType.request
    /// Frames that may be unconfirmed at once with `--write-type command` (`--write-window`).
    var writeWindow = WritePacer.defaultWindow
    /// Frames of the throughput phase this instance sends once linked (0: no benchmark; Bench.swift).
    var bench = 0
    /// Frames of the latency phase, spaced `benchGap` seconds apart.
    var benchLatencyFrames = 50
    var benchGap = 0.05
    /// Frames handed to the transport and not yet written (or failed) during the throughput phase.
    var benchWindow = 8

    init(_ args: [String]) {
        var index = 1
        func next() -> String {
            index += 1
            guard index < args.count else { fail("missing value for \(args[index - 1])") }
            return args[index]
        }
        while index < args.count {
            switch args[index] {
            case "--adapter": adapter = next()
            case "--name": name = next()
            case "--duration": duration = Double(next()) ?? duration
            case "--interval": interval = Double(next()) ?? interval
            case "--expect": expect = Int(next()) ?? expect
            case "--allow": allow.insert(next())
            case "--deny": deny.insert(next())
            case "--sizes": sizes = next().split(separator: ",").compactMap { Int($0) }
            case "--write-type": writeType = GATTWriteType(rawValue: next()) ?? { fail("bad --write-type") }()
            case "--write-window": writeWindow = Int(next()) ?? writeWindow
            case "--bench": bench = Int(next()) ?? bench
            case "--bench-latency": benchLatencyFrames = Int(next()) ?? benchLatencyFrames
            case "--bench-gap": benchGap = Double(next()) ?? benchGap
            case "--bench-window": benchWindow = Int(next()) ?? benchWindow
            default: fail("unknown option \(args[index])")
            }
            index += 1
        }
        guard name.utf8.count == 8 else { fail("--name must be 8 characters") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("gattcheck: \(message)\n".utf8))
    exit(2)
}
