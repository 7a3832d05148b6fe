import Foundation
import MeshLink

/// Command-line options of gattcheck.
struct Options {
    var adapter = "hci0", name = "", duration = 60.0, interval = 1.0, expect = 1
    var allow: Set<String> = [], deny: Set<String> = []
    /// Frame sizes to cycle through instead of alternating short and full frames.
    var sizes: [Int] = []

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
