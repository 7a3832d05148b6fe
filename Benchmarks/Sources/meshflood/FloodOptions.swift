import MeshLink
import MeshProtocol
import UDPTransport

/// The command line of `meshflood`.
struct FloodOptions: Sendable {
    /// The node under test, a loopback UDP endpoint.
    var target: UDPEndpoint
    /// The port M binds (0: any free port).
    var port: UInt16 = 0
    /// What to flood with.
    var mode: FloodMode = .broadcast
    /// Messages per second; 0 means as fast as the link takes them.
    var rate: Double = 0
    /// How long to flood, in seconds.
    var duration: Double = 20
    /// How long to wait for the link to be ready, in seconds.
    var linkTimeout: Double = 15
    /// Seconds to idle as a correct neighbour (heartbeats only) before flooding.
    var quietBefore: Double = 0
    /// Seconds to stay linked after the flood, before closing.
    var quietAfter: Double = 0
    /// Seed of the generator that picks direct-message destinations and filler bytes.
    var seed: UInt64 = 1
    /// In `replay` mode: cheap direct messages sent to turn the seen cache over.
    var turnover: Int = 70_000
    /// In `forged-route` mode: the node placed on forged routes (the node the attack would cut off).
    var victim: NodeID?
    /// Where every flood envelope sent is appended (`EnvelopeRecording`).
    var record: String?
    /// In `resend` mode: the recording to send again.
    var from: String?
    /// M's display name.
    var name = "meshflood"
    /// In `broadcast` mode: the text of each broadcast is `t=` and the wall time it was made, in
    /// milliseconds since the epoch (end-to-end latency from the receivers' watch events).
    var stamp = false
    /// Print the summary as one JSON object.
    var json = false

    static let usage = """
        usage: meshflood --target 127.0.0.1:PORT [--mode MODE] [--rate N] [--duration SECONDS]
                         [--port PORT] [--seed N] [--turnover N] [--quiet-before S] [--quiet-after S]
                         [--link-timeout S] [--name NAME] [--victim NODEID] [--record FILE]
                         [--from FILE] [--stamp] [--json]
        Links to one meshnoded over the loopback UDP link protocol as a protocol-correct
        neighbour and floods it. Modes: \(FloodMode.summary).
        --rate 0 (the default) sends as fast as the link takes frames. Loopback only.
        --record FILE appends every flood envelope sent to FILE; --mode resend --from FILE
        sends those envelopes again, each once (a peer replaying what a node saw).
        --stamp (broadcast mode) makes each text "t=" and the wall time in ms it was made.
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(FloodOptionsError) -> FloodOptions {
        var target: UDPEndpoint?
        var options = FloodOptions(target: try! UDPEndpoint(host: "127.0.0.1", port: 1))
        var rest = arguments[...]
        func value(_ flag: String) throws(FloodOptionsError) -> String {
            guard let next = rest.popFirst() else { throw .usage("\(flag) needs a value") }
            return next
        }
        func number<T: LosslessStringConvertible>(_ flag: String, _: T.Type) throws(FloodOptionsError) -> T {
            let text = try value(flag)
            guard let parsed = T(text) else { throw .usage("\(flag): not a number: \(text)") }
            return parsed
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--target":
                let text = try value(flag)
                guard let endpoint = try? UDPEndpoint(parsing: text), endpoint.host == "127.0.0.1" else {
                    throw .usage("--target must be 127.0.0.1:PORT, got \(text)")
                }
                target = endpoint
            case "--port": options.port = try number(flag, UInt16.self)
            case "--mode":
                let text = try value(flag)
                guard let mode = FloodMode(rawValue: text) else { throw .usage("unknown mode \(text) (\(FloodMode.summary))") }
                options.mode = mode
            case "--rate": options.rate = max(0, try number(flag, Double.self))
            case "--duration": options.duration = min(max(0, try number(flag, Double.self)), 3600)
            case "--link-timeout": options.linkTimeout = min(max(1, try number(flag, Double.self)), 600)
            case "--quiet-before": options.quietBefore = min(max(0, try number(flag, Double.self)), 3600)
            case "--quiet-after": options.quietAfter = min(max(0, try number(flag, Double.self)), 3600)
            case "--seed": options.seed = try number(flag, UInt64.self)
            case "--turnover": options.turnover = min(max(0, try number(flag, Int.self)), 10_000_000)
            case "--name": options.name = try value(flag)
            case "--victim":
                let text = try value(flag)
                guard let victim = NodeID(hex: text) else { throw .usage("--victim: not a 32-digit node ID: \(text)") }
                options.victim = victim
            case "--record": options.record = try value(flag)
            case "--from": options.from = try value(flag)
            case "--stamp": options.stamp = true
            case "--json": options.json = true
            case "--help", "-h": throw .help
            default: throw .usage("unknown argument \(flag)")
            }
        }
        guard let target else { throw .usage("--target is required") }
        if options.mode == .resend && options.from == nil { throw .usage("--mode resend needs --from FILE") }
        options.target = target
        return options
    }
}

/// Why the command line was not accepted.
enum FloodOptionsError: Error {
    /// `--help` was given.
    case help
    /// A bad command line, with the reason.
    case usage(String)
}
