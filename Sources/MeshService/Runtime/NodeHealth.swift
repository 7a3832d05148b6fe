import ControlProtocol

/// The one word `status` leads with, and why: a pure judgement of what the node reports.
public struct NodeHealth: Equatable, Sendable {
    /// The overall word.
    public enum Word: String, Equatable, Sendable {
        /// Running, linked, nothing waiting for the operator.
        case ok
        /// Running and able to carry messages, but something is missing or waits (the reasons).
        case degraded
        /// Not able to carry messages now: starting, stopping, or no transport is running.
        case down
    }

    /// The word.
    public var word: Word
    /// Why it is not `ok`, the worst first; empty when `ok`.
    public var reasons: [String]

    /// Judges a node that runs one transport, whose own state is `transportState` (nil when it says
    /// nothing, as UDP); see ``judge(state:transports:neighbours:bridge:reload:)``.
    public static func judge(
        state: RuntimeState, transportState: String?, neighbours: Int, bridge: String?, reload: ReloadOutcome
    ) -> NodeHealth {
        judge(state: state, transports: [("transport", transportState)], neighbours: neighbours, bridge: bridge, reload: reload)
    }

    /// Judges a node: `state` is the runtime's, `transports` each transport's name and own state
    /// (nil when it says nothing, as UDP), `neighbours` those with a link, `bridge` the MQTT
    /// bridge's state on a gateway, `reload` what the reloads since start could not do. A transport
    /// whose state is not `running…` makes the node down when no other transport runs, else degraded.
    public static func judge(
        state: RuntimeState, transports: [(name: String, state: String?)], neighbours: Int, bridge: String?, reload: ReloadOutcome
    ) -> NodeHealth {
        var down: [String] = []
        var degraded: [String] = []
        if state != .running { down.append("meshnoded is \(state.rawValue)") }
        let stopped = transports.compactMap { transport in
            transport.state.flatMap { $0.hasPrefix("running") ? nil : "\(transports.count == 1 ? "transport" : transport.name): \($0)" }
        }
        if stopped.count == transports.count { down += stopped } else { degraded += stopped }
        if neighbours == 0 { degraded.append("no neighbours") }
        if let bridge, bridge != "connected" { degraded.append("mqtt \(bridge)") }
        if !reload.restartNeededFor.isEmpty {
            degraded.append("restart needed for: \(reload.restartNeededFor.joined(separator: ", "))")
        }
        if reload.refusedReason != nil { degraded.append("last reload refused") }
        let word: Word = !down.isEmpty ? .down : degraded.isEmpty ? .ok : .degraded
        return NodeHealth(word: word, reasons: down + degraded)
    }
}
