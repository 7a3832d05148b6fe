import Foundation

/// Where the text table goes: stdout by default, stderr under `--json` (stdout then carries
/// only the JSON document).
struct Output {
    let toStandardError: Bool

    /// Prints one line of the text table.
    func line(_ text: String) {
        if toStandardError {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        } else {
            print(text)
        }
    }

    /// A section heading.
    func heading(_ text: String) { line("== \(text)") }

    /// A named figure, padded into a column.
    func row(_ name: String, _ value: String) {
        line(name.padding(toLength: 46, withPad: " ", startingAt: 0) + " " + value)
    }
}

/// The command line: `meshbench [--json] [--quick] [--openssl-seconds N]`.
struct Options {
    var json = false
    /// Fewer iterations (a smoke run; the figures are noisier).
    var quick = false
    /// The `-seconds` given to `openssl speed` for each algorithm.
    var opensslSeconds = 3
    /// Only these sections (all when empty): fragmenter, seen, crypto, relay, simulator.
    var only: Set<String> = []

    /// True when `section` is to run.
    func runs(_ section: String) -> Bool { only.isEmpty || only.contains(section) }

    init(arguments: [String]) throws {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--quick": quick = true
            case "--openssl-seconds":
                guard let value = rest.popFirst().flatMap(Int.init), value > 0, value <= 60 else {
                    throw UsageError.badValue("--openssl-seconds takes 1...60")
                }
                opensslSeconds = value
            case "--only":
                guard let value = rest.popFirst() else { throw UsageError.badValue("--only takes a section name") }
                only.insert(value)
            case "--help", "-h": throw UsageError.help
            default: throw UsageError.badValue("unknown argument \(argument)")
            }
        }
    }

    static let usage = """
        usage: meshbench [--json] [--quick] [--openssl-seconds N] [--only SECTION]...
          --json               print one JSON document on stdout (the table goes to stderr)
          --quick              fewer iterations: a smoke run
          --openssl-seconds N  seconds per algorithm for `openssl speed` (default 3)
          --only SECTION       run only fragmenter, seen, crypto, relay or simulator (--json then
                               reports only what ran); relay-profile: only MTU 247, k 4, for perf
                               (relay-profile-510: MTU 510, where a broadcast is one frame)
        """
}

/// A bad command line.
enum UsageError: Error {
    /// --help was asked for.
    case help
    /// An argument was wrong.
    case badValue(String)
}
