/// The host firewall's input rules as far as the doctor reads them (nftables, as root).
public enum FirewallFact: Equatable, Sendable {
    /// The rules were not read; why (not root, no `nft`, it failed).
    case notRead(String)
    /// The base chains on the input hook that see IPv4 (families `ip` and `inet`).
    case nftables([FirewallChain])
}

/// One nftables base chain on the input hook.
public struct FirewallChain: Equatable, Sendable {
    /// `inet filter input`: family, table and chain.
    public var name: String
    /// Its policy is `drop`.
    public var policyDrops: Bool
    /// Its rules, in order.
    public var rules: [FirewallRule]

    /// Creates a chain.
    public init(name: String, policyDrops: Bool, rules: [FirewallRule]) {
        self.name = name
        self.policyDrops = policyDrops
        self.rules = rules
    }
}

/// One rule: what it matches and what it does.
public struct FirewallRule: Equatable, Sendable {
    /// Every condition must hold for the rule to act.
    public var conditions: [FirewallCondition]
    /// What it does to a packet that matches.
    public var verdict: FirewallVerdict

    /// Creates a rule.
    public init(_ conditions: [FirewallCondition], _ verdict: FirewallVerdict) {
        self.conditions = conditions
        self.verdict = verdict
    }
}

/// A rule's condition, as far as the doctor understands it.
public enum FirewallCondition: Equatable, Sendable {
    /// `udp dport` in these ranges (`negated`: not in them).
    case udpPorts([ClosedRange<UInt16>], negated: Bool)
    /// Another layer 4 protocol (`tcp dport 22`, `meta l4proto icmp`): never a UDP packet.
    case notUDP
    /// `iifname` one of these (`negated`: none of them); a trailing `*` matches a prefix.
    case inputInterfaces([String], negated: Bool)
    /// `ct state` one of these (`negated`: none of them).
    case connectionStates([String], negated: Bool)
    /// Anything else (addresses, marks, limits, ...): may or may not match.
    case other
}

/// What a rule does.
public enum FirewallVerdict: Equatable, Sendable {
    /// `accept`.
    case accept
    /// `drop` or `reject`.
    case drop
    /// `jump` or `goto` another chain, whose rules the doctor does not follow.
    case jump
    /// No verdict (counters, logs): the next rule decides.
    case none
}

/// What a chain does to a UDP packet on the LAN: the first datagram from a peer (`ct state new`).
public enum FirewallOutcome: Equatable, Sendable {
    /// Accepted (by a rule or the policy).
    case accepted
    /// Dropped by the rule at this index, or by the policy (nil).
    case dropped(rule: Int?)
    /// A rule the doctor cannot judge decides: its index.
    case unclear(rule: Int)
}

extension FirewallChain {
    /// What this chain does to a new UDP packet to `port` arriving on `interface`.
    public func outcome(port: UInt16, interface: String) -> FirewallOutcome {
        var unclear: Int?
        for (index, rule) in rules.enumerated() {
            let matches = rule.conditions.map { $0.matches(port: port, interface: interface) }
            if matches.contains(false) || rule.verdict == .none { continue }
            let certain = !matches.contains(nil)
            switch rule.verdict {
            case .accept where certain: return unclear.map { .unclear(rule: $0) } ?? .accepted
            case .drop where certain: return unclear.map { .unclear(rule: $0) } ?? .dropped(rule: index)
            default: unclear = unclear ?? index
            }
        }
        if let unclear { return .unclear(rule: unclear) }
        return policyDrops ? .dropped(rule: nil) : .accepted
    }
}

extension FirewallCondition {
    /// Whether a new UDP packet to `port` on `interface` meets it; nil when the doctor cannot tell.
    func matches(port: UInt16, interface: String) -> Bool? {
        switch self {
        case .udpPorts(let ranges, let negated): ranges.contains { $0.contains(port) } != negated
        case .notUDP: false
        case .inputInterfaces(let names, let negated):
            names.contains { $0.hasSuffix("*") ? interface.hasPrefix($0.dropLast()) : $0 == interface } != negated
        case .connectionStates(let states, let negated): states.contains("new") != negated
        case .other: nil
        }
    }
}
