/// One kind of hostile publication `mqttflood` sends (docs/PROTOCOL.md Part F, F4 names the gate
/// each one meets at a gateway).
enum FloodShape: String, CaseIterable, Sendable {
    /// 1 to 256 filler bytes, NUL bytes included, on the broadcast topic (`dropped_malformed`).
    case garbage
    /// One byte more than the bridge takes, on the broadcast topic (`dropped_oversized`).
    case oversized
    /// A short payload on `<root>/direct/<not a node ID>` (`dropped_bad_topic`).
    case badTopic = "bad-topic"
    /// A well-formed broadcast envelope on a direct topic (`dropped_topic_mismatch`).
    case mismatch
    /// A recorded envelope (`--replay FILE`) exactly as the broker carried it (seen at the engine).
    case replay
    /// A well-formed broadcast, a new message ID and a filler signature, claiming `--claim` or a
    /// minted gateway (the budgets, then `message.dropped_unverifiable`).
    case forged
    /// A correctly signed broadcast from a minted identity, published by a minted gateway (the
    /// budgets, then delivered: what a publisher with fresh keys can get in).
    case minted

    /// The shapes' names, for the usage text.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
