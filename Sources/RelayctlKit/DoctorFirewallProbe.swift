import Doctor
import FoundationEssentials
import Glibc

/// Reads the nftables ruleset (`nft -j list ruleset`, as root, 2 s at most) into the input chains
/// the LAN check judges.
enum DoctorFirewallProbe {
    /// Where `nft` is looked for.
    static let paths = ["/usr/sbin/nft", "/sbin/nft"]
    /// The most output read.
    static let maxOutput = 8 << 20

    /// The firewall fact on this machine.
    static func fact() -> FirewallFact {
        guard geteuid() == 0 else { return .notRead("run relayctl doctor as root to read the firewall") }
        guard let nft = paths.first(where: { access($0, X_OK) == 0 }) else { return .notRead("no nft (nftables) installed") }
        switch DoctorCommand.run([nft, "-j", "list", "ruleset"], timeout: .seconds(2), maxOutput: maxOutput) {
        case .failure(let why): return .notRead("nft -j list ruleset: \(why)")
        case .success(let output): return parse(output)
        }
    }

    /// The input base chains (families `ip` and `inet`) of `nft -j list ruleset`'s output.
    static func parse(_ output: [UInt8]) -> FirewallFact {
        guard let document = try? JSONDecoder().decode(NFTDocument.self, from: Data(output)) else {
            return .notRead("nft's JSON output was not understood")
        }
        var chains: [FirewallChain] = []
        var keys: [String] = []
        for item in document.nftables {
            if let chain = item["chain"]?.object, chain["hook"]?.string == "input", chain["type"]?.string ?? "filter" == "filter",
               let family = chain["family"]?.string, family == "ip" || family == "inet",
               let table = chain["table"]?.string, let name = chain["name"]?.string {
                keys.append("\(family) \(table) \(name)")
                chains.append(FirewallChain(name: "\(family) \(table) \(name)", policyDrops: chain["policy"]?.string == "drop", rules: []))
            } else if let rule = item["rule"]?.object, let family = rule["family"]?.string, let table = rule["table"]?.string,
                      let name = rule["chain"]?.string, let index = keys.firstIndex(of: "\(family) \(table) \(name)") {
                chains[index].rules.append(self.rule(rule["expr"]?.array ?? []))
            }
        }
        return .nftables(chains)
    }

    /// One rule's statements as conditions and a verdict.
    static func rule(_ statements: [NFTValue]) -> FirewallRule {
        var conditions: [FirewallCondition] = []
        var verdict = FirewallVerdict.none
        for statement in statements {
            guard let object = statement.object, let (key, body) = object.first, object.count == 1 else {
                conditions.append(.other)
                continue
            }
            switch key {
            case "accept": verdict = .accept
            case "drop", "reject": verdict = .drop
            case "jump", "goto", "return": verdict = .jump
            case "counter", "log", "comment": break
            case "match": conditions.append(condition(body))
            default: conditions.append(.other)
            }
        }
        return FirewallRule(conditions, verdict)
    }

    /// A `match` statement as a condition.
    static func condition(_ match: NFTValue) -> FirewallCondition {
        guard let op = match["op"]?.string, ["==", "!=", "in"].contains(op), let left = match["left"], let right = match["right"] else {
            return .other
        }
        let negated = op == "!="
        if let payload = left["payload"], let proto = payload["protocol"]?.string {
            if proto == "udp", payload["field"]?.string == "dport" { return ports(right).map { .udpPorts($0, negated: negated) } ?? .other }
            if ["tcp", "icmp", "icmpv6", "sctp", "dccp", "udplite"].contains(proto) { return .notUDP }
            if proto == "ip", payload["field"]?.string == "protocol" { return protocols(right, negated: negated) }
            return .other
        }
        if let key = left["meta"]?["key"]?.string {
            if key == "l4proto" { return protocols(right, negated: negated) }
            if key == "iifname" || key == "iif" { return strings(right).map { .inputInterfaces($0, negated: negated) } ?? .other }
            return .other
        }
        if left["ct"]?["key"]?.string == "state" { return strings(right).map { .connectionStates($0, negated: negated) } ?? .other }
        return .other
    }

    /// `meta l4proto` or `ip protocol`: a UDP packet meets it (no condition) or not.
    static func protocols(_ right: NFTValue, negated: Bool) -> FirewallCondition {
        guard let names = strings(right) else { return .other }
        return names.contains("udp") != negated ? .udpPorts([0...UInt16.max], negated: false) : .notUDP
    }

    /// A number, a range, or a set of them, as port ranges; nil for anything else (named services).
    static func ports(_ value: NFTValue) -> [ClosedRange<UInt16>]? {
        if let number = value.number, let port = UInt16(exactly: number) { return [port...port] }
        if let range = value["range"]?.array, range.count == 2, let low = range[0].number, let high = range[1].number,
           let from = UInt16(exactly: low), let to = UInt16(exactly: high), from <= to { return [from...to] }
        if let set = value["set"]?.array {
            var all: [ClosedRange<UInt16>] = []
            for element in set {
                guard let ranges = ports(element) else { return nil }
                all += ranges
            }
            return all
        }
        return nil
    }

    /// A string, a list or a set of strings.
    static func strings(_ value: NFTValue) -> [String]? {
        if let text = value.string { return [text] }
        let items = value.array ?? value["set"]?.array
        guard let items else { return nil }
        let texts = items.compactMap(\.string)
        return texts.count == items.count ? texts : nil
    }
}

/// `nft -j`'s top level.
struct NFTDocument: Decodable {
    var nftables: [NFTValue]
}

/// Any JSON value of `nft -j`'s output, decoded by Foundation's JSON decoder.
indirect enum NFTValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([NFTValue])
    case object([String: NFTValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([NFTValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: NFTValue].self))
        }
    }

    subscript(key: String) -> NFTValue? { object?[key] }
    var object: [String: NFTValue]? { if case .object(let value) = self { value } else { nil } }
    var array: [NFTValue]? { if case .array(let value) = self { value } else { nil } }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
}
