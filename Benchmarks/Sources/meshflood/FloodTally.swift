/// What M sent during the flood.
struct FloodTally: Sendable {
    /// Flood envelopes sent (all frames handed to the socket).
    var messages = 0
    /// Frames of those envelopes.
    var frames = 0
    /// Encoded envelope bytes of those envelopes.
    var envelopeBytes = 0
    /// Envelopes that did not go out (link not keyed, or a frame the socket refused).
    var failed = 0
    /// Identities minted for the flood.
    var identitiesMinted = 0
    /// Heartbeats M sent as a correct neighbour.
    var heartbeats = 0
    /// Slots skipped while the link was not ready.
    var waitsForLink = 0
    /// Envelopes sent that `--record` could not append to its file.
    var recordFailures = 0
    /// Seconds the flood ran.
    var seconds = 0.0
    /// In `replay` mode: edited copies of the latest heard broadcast.
    var replayCopies = 0
    /// In `replay` mode: cheap direct messages sent to turn the seen cache over.
    var turnoverMessages = 0
    /// In `replay` mode: the old broadcast replayed after the turnover.
    var replayedMessageID: String?
    /// In `replay` mode: how old that broadcast was when replayed, in seconds.
    var replayedAgeSeconds: Double?
}
