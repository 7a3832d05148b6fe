/// Counts of what M's link did, for the summary.
struct LinkTally: Sendable {
    /// Links that came up (1 unless the node dropped M).
    var linksUp = 0
    /// Links that went down before M stopped.
    var linksDown = 0
    /// Key exchanges that gave keys (the first and every rekey).
    var keyExchanges = 0
    /// Rekeys asked for by the node under test.
    var rekeys = 0
    /// Envelopes opened from the node under test.
    var envelopesReceived = 0
    /// Broadcasts from other nodes heard (candidates for replay).
    var broadcastsHeard = 0
    /// Packets that did not open.
    var unopened = 0
    /// Envelopes M failed to seal or split.
    var sealOrSplitFailures = 0
    /// Frames the socket would not take after retries.
    var framesNotSent = 0
}
