import Flooding
import Fragmenter
import MeshConfig
import MeshNode
import MeshProtocol

extension DaemonSettings {
    /// The engine configuration these settings describe.
    public var engineConfiguration: EngineConfiguration {
        var nodeAllow: Set<NodeID> = []
        var nodeDeny: Set<NodeID> = []
        for filter in bluez.allow { if case .node(let hex) = filter, let id = NodeID(hex: hex) { nodeAllow.insert(id) } }
        for filter in bluez.deny { if case .node(let hex) = filter, let id = NodeID(hex: hex) { nodeDeny.insert(id) } }
        var configuration = EngineConfiguration(
            displayName: node.name, icon: node.icon, role: .relay, hopLimits: relay.hopLimits,
            heartbeatInterval: timers.heartbeatInterval, departureGrace: timers.departureGrace,
            handshakeTimeout: timers.handshakeTimeout, seenCapacity: seen.capacity, seenLifetime: seen.expiry,
            padding: crypto.padding, rekeyInterval: timers.rekeyInterval, hold: hold.limits,
            budgets: budget.limits,
            freshness: seen.freshness,
            deniedNodes: nodeDeny, allowedNodes: nodeAllow)
        configuration.admission = links.limits
        configuration.frameBudget = links.frameBudget
        configuration.relayScheduler = relay.schedulerChoice
        configuration.keyExchange = crypto.keyExchange == .privateOnly ? .privateOnly : .privateFirst
        configuration.coverInterval = privacy.coverInterval
        configuration.keepsMail = mailbox.enabled
        configuration.mailReachWindow = mailbox.reachWindow
        configuration.lookup = lookup.limits
        // Unkeyed links may hold at most half the transports' slots, so keyed neighbours always have room.
        // And each transport at most half its own, so a flood on one cannot take another's handshakes.
        let slots = transport.kinds.map { kind in kind.udpSection.map { self[$0].maxLinks } ?? bluez.maxConnections }
        configuration.admission.maxUnkeyedLinks = min(links.maxUnkeyed, max(1, slots.reduce(0, +) / 2))
        for (port, transportSlots) in slots.enumerated() where port <= Int(UInt8.max) {
            configuration.admission.maxUnkeyedPerTransport[UInt8(port)] = min(links.maxUnkeyed, max(1, transportSlots / 2))
        }
        configuration.bridged = mqtt.enabled
        configuration.bridgeDownlinkHops = mqtt.downlinkHops
        return configuration
    }

    /// The fragmenter limits these settings describe.
    public var fragmenterLimits: FragmenterLimits {
        FragmenterLimits(
            maxMessageSize: fragments.maxMessage, reassemblyTimeout: fragments.timeout,
            maxTransfersPerLink: fragments.maxTransfersPerLink)
    }
}
