import ControlProtocol

/// How `stats` counters are named and typed as Prometheus metrics (docs/CONTROL.md, "Metrics").
///
/// The rule is mechanical so names stay stable as counters are added: `meshnode_`, the group,
/// `_`, the counter, all in snake case; counters end in `_total`. The per-kind groups share one
/// family per counter with a `kind` label: `message.relayed` is
/// `meshnode_message_relayed_total{kind="message"}`, `join.relayed` the same with `kind="join"`.
public enum MetricName {
    /// The prefix of every metric.
    public static let prefix = "meshnode_"
    /// The groups that are one per envelope kind and become the `kind` label.
    public static let kindGroups: Set<String> = ["message", "join", "heartbeat", "profile", "keyExchange", "keyRequest", "keyAnswer"]
    /// The counters that are gauges (current sizes), as `group.counter`.
    public static let gauges: Set<String> = [
        "engine.seen_cache_ids", "engine.buffered_fragment_bytes", "engine.neighbours", "engine.known_nodes",
        "engine.held_messages", "engine.held_bytes", "engine.clock_synchronised", "engine.clock_votes",
        "engine.clock_behind_ms", "engine.clock_ahead_ms", "inbox.waiting_frames", "control.connected_clients",
        "mailbox.held", "mailbox.held_bytes", "mailbox.recipients", "mailbox.database_bytes",
        "mqtt.queue_depth", "mqtt.gateway_shares",
        "lookup.in_flight", "lookup.waiting_messages", "outbox.held", "outbox.held_bytes", "outbox.targets",
    ]

    /// The family name of a counter (without `_total`) and its `kind` label value, if any.
    public static func family(group: String, counter: String) -> (name: String, kind: String?) {
        if kindGroups.contains(group) {
            return (prefix + "message_" + snakeCase(counter), snakeCase(group))
        }
        return (prefix + snakeCase(group) + "_" + snakeCase(counter), nil)
    }

    /// Whether a counter is a gauge rather than an ever-growing count.
    public static func isGauge(group: String, counter: String) -> Bool {
        gauges.contains(group + "." + counter)
    }

    /// `keyExchange` → `key_exchange`; any character outside `[a-z0-9_]` becomes `_`, so a name
    /// from a newer daemon still makes a valid metric name.
    public static func snakeCase(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "A"..."Z":
                if !result.isEmpty, result.last != "_" { result += "_" }
                result.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            case "a"..."z", "0"..."9", "_": result.unicodeScalars.append(scalar)
            default: result += "_"
            }
        }
        return result.isEmpty ? "_" : result
    }
}
