import MeshProtocol

/// The command line of `mqttflood`.
struct MQTTFloodOptions: Sendable {
    /// The broker's address (a name or an IP address).
    var host = "127.0.0.1"
    /// The broker's port.
    var port: Int32 = 1883
    /// The topics' prefix (docs/PROTOCOL.md F1).
    var prefix = "relaychat/v1"
    /// The mesh's name under the prefix.
    var mesh = "mesh"
    /// Messages per second; 0 means as fast as the broker's socket takes them.
    var rate: Double = 10_000
    /// How long to flood, in seconds.
    var duration: Double = 5
    /// The shapes and their weights.
    var mix = try! ShapeMix(parsing: "garbage:40,forged:20,minted:20,bad-topic:5,mismatch:5,oversized:1")
    /// The gateway `forged` envelopes claim (the route's last entry); nil: minted gateways.
    var claim: NodeID?
    /// Files each holding one envelope as the broker carried it (`mosquitto_sub -N`), for `replay`.
    var replay: [String] = []
    /// Minted gateway IDs taken in turn as the publisher of `forged` and `minted` envelopes.
    var gateways = 256
    /// Minted identities that sign the `minted` envelopes.
    var identities = 64
    /// The most `minted` envelopes signed before the flood (after that, they repeat).
    var maxSigned = 20_000
    /// The size of an `oversized` payload.
    var oversizedBytes = 65_537
    /// Seed of the filler generator (garbage, signatures, bad topics).
    var seed: UInt64 = 1
    /// Print the summary as one JSON object.
    var json = false

    static let usage = """
        usage: mqttflood --port PORT [--host HOST] [--prefix P] [--mesh NAME] [--rate N] [--duration S]
                         [--mix SHAPE:WEIGHT,...] [--claim NODEID] [--replay FILE]... [--gateways N]
                         [--identities N] [--max-signed N] [--oversized-bytes N] [--seed N] [--json]
        Publishes a paced flood of hostile messages (QoS 0) to an MQTT bridge's topics over
        libmosquitto (MQTT 5), as a publisher with broker credentials could. Shapes: \(FloodShape.names).
        Every envelope is built (and the minted ones signed) before the flood starts, so the rate
        is the network's. Stops by itself after --duration seconds (at most 600).
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(MQTTFloodOptionsError) -> MQTTFloodOptions {
        var options = MQTTFloodOptions()
        var rest = arguments[...]
        func value(_ flag: String) throws(MQTTFloodOptionsError) -> String {
            guard let next = rest.popFirst() else { throw .usage("\(flag) needs a value") }
            return next
        }
        func number<T: LosslessStringConvertible & Comparable>(
            _ flag: String, _ range: ClosedRange<T>
        ) throws(MQTTFloodOptionsError) -> T {
            let text = try value(flag)
            guard let parsed = T(text), range.contains(parsed) else { throw .usage("\(flag): not a number in \(range): \(text)") }
            return parsed
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--host": options.host = try value(flag)
            case "--port": options.port = try number(flag, 1...65_535)
            case "--prefix": options.prefix = try value(flag)
            case "--mesh": options.mesh = try value(flag)
            case "--rate": options.rate = try number(flag, 0...1_000_000)
            case "--duration": options.duration = try number(flag, 0...600)
            case "--mix": options.mix = try ShapeMix(parsing: try value(flag))
            case "--claim":
                let text = try value(flag)
                guard let node = NodeID(hex: text) else { throw .usage("--claim: not a 32-digit node ID: \(text)") }
                options.claim = node
            case "--replay": options.replay.append(try value(flag))
            case "--gateways": options.gateways = try number(flag, 1...100_000)
            case "--identities": options.identities = try number(flag, 1...10_000)
            case "--max-signed": options.maxSigned = try number(flag, 1...1_000_000)
            case "--oversized-bytes": options.oversizedBytes = try number(flag, 1...(16 << 20))
            case "--seed": options.seed = try number(flag, 0...UInt64.max)
            case "--json": options.json = true
            case "--help", "-h": throw .help
            default: throw .usage("unknown argument \(flag)")
            }
        }
        if options.mix.weights.contains(where: { $0.shape == .replay }) && options.replay.isEmpty {
            throw .usage("the replay shape needs --replay FILE")
        }
        return options
    }
}

/// Why the command line was not accepted.
enum MQTTFloodOptionsError: Error {
    /// `--help` was given.
    case help
    /// A bad command line, with the reason.
    case usage(String)
}
