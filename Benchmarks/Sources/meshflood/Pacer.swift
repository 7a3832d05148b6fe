/// Spaces sends to a target rate over a bounded time: message i is due at start + i / rate.
/// Behind schedule it does not sleep (it never bursts to catch up beyond the link's own pace).
struct Pacer {
    /// Messages per second; 0 means no pacing.
    let rate: Double
    /// How long the flood lasts.
    let duration: Duration
    private let start = ContinuousClock.now

    /// Creates a pacer that starts now.
    init(rate: Double, seconds: Double) {
        self.rate = rate
        duration = .milliseconds(Int64(seconds * 1000))
    }

    /// Time since the start.
    var elapsed: Duration { ContinuousClock.now - start }

    /// False once the duration is over.
    var isRunning: Bool { elapsed < duration }

    /// Waits until message `index` is due; false when the flood's time is over.
    func waitForSlot(_ index: Int) -> Bool {
        guard isRunning else { return false }
        guard rate > 0 else { return true }
        let due = Duration.nanoseconds(Int64(Double(index) / rate * 1e9))
        let wait = due - elapsed
        if wait > .zero { WallClock.sleep(min(wait, duration - elapsed)) }
        return isRunning
    }
}
