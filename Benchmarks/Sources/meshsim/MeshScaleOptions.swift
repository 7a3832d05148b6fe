import Flooding
import MeshProtocol

/// What `meshsim` is asked to run.
struct MeshScaleOptions: Sendable {
    /// Which topology to build.
    enum Topology: String, Sendable, Codable {
        /// A random geometric graph (people on a floor, linked within radio range).
        case rgg
        /// Nodes in a row.
        case line
        /// Nodes in a circle.
        case ring
    }

    /// Which relay scheduler every node runs.
    enum Scheduler: String, Sendable, Codable {
        /// Plain RelayChat flooding.
        case plain
        /// Managed flooding with the default parameters.
        case managed
    }

    var nodes = 50
    var degree = 10.0
    var maxLinks = 16
    var messages = 100
    var directShare = 0.1
    var spacing: Duration = .milliseconds(1000)
    var settle: Duration = .seconds(30)
    var seed: UInt64 = 1
    var scheduler = Scheduler.managed
    var topology = Topology.rgg
    var json = false
    /// Probability that any one frame is lost on any link.
    var loss = 0.0
    /// Managed flooding's tunables (`--slot-ms`, `--max-window-ms`, `--cancel-after`).
    var managed = ManagedFloodingParameters()

    /// A command-line problem.
    enum ParseError: Error, CustomStringConvertible {
        /// An option that takes a value came last.
        case missingValue(String)
        /// A value that does not parse or is out of range.
        case badValue(option: String, value: String)
        /// An option `meshsim` does not know.
        case unknownOption(String)

        var description: String {
            switch self {
            case .missingValue(let option): "\(option) needs a value"
            case .badValue(let option, let value): "bad value for \(option): \(value)"
            case .unknownOption(let option): "unknown option \(option)"
            }
        }
    }

    static let usage = """
        usage: meshsim [--json] [--nodes N] [--degree D] [--max-links L] [--messages M] [--direct-share F]
                       [--spacing-ms MS] [--settle-s S] [--seed S] [--loss P] [--scheduler plain|managed]
                       [--topology rgg|line|ring] [--slot-ms MS] [--max-window-ms MS] [--cancel-after K] [--coverage C]
        """

    /// Parses the command line (without the program name).
    init(arguments: [String]) throws(ParseError) {
        var rest = arguments[...]
        func value(_ option: String) throws(ParseError) -> String {
            guard let next = rest.popFirst() else { throw .missingValue(option) }
            return next
        }
        func number<T: LosslessStringConvertible & Comparable>(_ option: String, _ range: ClosedRange<T>) throws(ParseError) -> T {
            let text = try value(option)
            guard let parsed = T(text), range.contains(parsed) else { throw .badValue(option: option, value: text) }
            return parsed
        }
        while let option = rest.popFirst() {
            switch option {
            case "--json": json = true
            case "--nodes": nodes = try number(option, 2...5000)
            case "--degree": degree = try number(option, 1.0...64.0)
            case "--max-links": maxLinks = try number(option, 1...64)
            case "--messages": messages = try number(option, 1...100_000)
            case "--direct-share": directShare = try number(option, 0.0...1.0)
            case "--spacing-ms": spacing = .milliseconds(try number(option, 1...600_000) as Int)
            case "--settle-s": settle = .seconds(try number(option, 1...3600) as Int)
            case "--loss": loss = try number(option, 0.0...0.5)
            case "--seed": seed = try number(option, 0...UInt64.max)
            case "--slot-ms": managed.slot = .milliseconds(try number(option, 0...10_000) as Int)
            case "--max-window-ms": managed.maxWindow = .milliseconds(try number(option, 0...10_000) as Int)
            case "--coverage": managed.coverage = try number(option, 1...16)
            case "--cancel-after": managed.cancelAfterCopies = try number(option, 0...64)
            case "--scheduler":
                let text = try value(option)
                guard let parsed = Scheduler(rawValue: text) else { throw .badValue(option: option, value: text) }
                scheduler = parsed
            case "--topology":
                let text = try value(option)
                guard let parsed = Topology(rawValue: text) else { throw .badValue(option: option, value: text) }
                topology = parsed
            default: throw .unknownOption(option)
            }
        }
    }
}
