/// What the hostile neighbour M floods the node under test with (issue 11, "Floods by a
/// neighbour that speaks the protocol").
enum FloodMode: String, CaseIterable, Sendable {
    /// Signed broadcasts under M's own identity.
    case broadcast
    /// Broadcasts, each from a freshly minted identity that signs it correctly.
    case freshBroadcast = "fresh-broadcast"
    /// Direct messages (sealed-shaped payloads) to random destinations.
    case direct
    /// Broadcasts under M's identity whose signatures do not verify.
    case badSignature = "bad-signature"
    /// Join notices, each from a freshly minted identity.
    case freshJoin = "fresh-join"
    /// Copies of a victim's broadcast passed on as if M had it straight from its origin; then,
    /// after cheap direct messages have turned the seen cache over, the oldest heard broadcast
    /// replayed the same way.
    case replay
    /// Copies of the latest heard broadcast with hops and route edited in turn (reset to the
    /// origin, empty, an invented relay, `--victim` placed on the route or as the sender,
    /// reordered, and the one edit that fits M), all through the flood (issue 18).
    case forgedRoute = "forged-route"
    /// The envelopes of an earlier run's `--record FILE` (`--from FILE`), each once, in order,
    /// passed on as if M had them straight from their origin (the replayed copy that fits M).
    case resend
    /// 61 KB direct messages and 4 KB broadcasts, alternating.
    case big
    /// 61 KB direct messages sent without their last fragment: transfers that never complete,
    /// so the node's reassembly buffers fill to their caps (issue 12, "Footprint").
    case partial

    /// One line per mode, for `--help`.
    static var summary: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }
}
