import Dispatch
import MeshNode

extension NodeRuntime {
    /// The time the one-shot relay wake-up is armed for; only on `queue`.
    var relayWakeup: Duration? {
        get { confined.value.relayWakeup }
        _modify { yield &confined.value.relayWakeup }
    }

    /// Wakes the engine when its relay scheduler has a relay due: managed flooding holds relays
    /// for a few milliseconds, far less than the 250 ms tick. At most one wake-up is armed, for
    /// the earliest due time plus `RelayWakeupPlan.slack`: a frame that arrives first runs the
    /// engine anyway and sends the relay (`sendRelaysDueByNow`), and a wake-up that does fire
    /// sends every relay due by then. Called after every turn on the engine queue (`perform`).
    ///
    /// The wake-up is a `WakeupTimer` (a timerfd and a thread of its own), not `asyncAfter`: under
    /// a flood a relay is held for nearly every message, and libdispatch's timers cost three
    /// thread wake-ups each. Should the timer fail to start, `asyncAfter` does the job.
    func armRelayWakeup() {
        switch RelayWakeupPlan.decide(nextDue: engine.nextRelayDue, armed: relayWakeup) {
        case .keep:
            return
        case .disarm:
            relayWakeup = nil
            confined.value.relayTimer?.disarm()
        case .arm(let deadline):
            relayWakeup = deadline
            let wait = max(.zero, deadline - now)
            if let timer = relayTimer() {
                timer.arm(after: wait)
                return
            }
            let nanoseconds = Int(wait.components.seconds) * 1_000_000_000 + Int(wait.components.attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
                guard let self, self.relayWakeup == deadline else { return }
                self.relayWakeup = nil
                self.perform(self.engine.sendDueRelays(now: self.now))
            }
        }
    }

    /// Sends the relays that fell due while the queue was busy; only on `queue`. The engine
    /// flushes due relays itself on every new message; this covers turns that took none in.
    func sendRelaysDueByNow() {
        guard let due = engine.nextRelayDue, due <= now else { return }
        perform(engine.sendDueRelays(now: now))
    }

    /// The relay wake-up timer, started on first use; nil once stopping or if it cannot start.
    private func relayTimer() -> WakeupTimer? {
        if let timer = confined.value.relayTimer { return timer }
        guard state != .stopping, !confined.value.relayTimerFailed else { return nil }
        do {
            let timer = try WakeupTimer(queue: queue) { [weak self] in self?.relayWakeupFired() }
            confined.value.relayTimer = timer
            return timer
        } catch {
            confined.value.relayTimerFailed = true
            logger.warning(.general, "relay wake-up timer: \(error); using dispatch timers", LogFields(reason: "relay_timer"))
            return nil
        }
    }

    /// The timer expired (or a replaced deadline fired late): sends what is due and re-arms.
    private func relayWakeupFired() {
        guard let armed = relayWakeup, armed <= now else {
            // Early or stale: the armed deadline is still ahead, so arm for it again.
            if let armed = relayWakeup { confined.value.relayTimer?.arm(after: armed - now) }
            return
        }
        relayWakeup = nil
        perform(engine.sendDueRelays(now: now))
    }

    /// Stops the relay wake-up timer's thread; only on `queue`. Relays still held are then
    /// woken for by dispatch timers (the runtime is stopping).
    func stopRelayTimer() {
        confined.value.relayTimer?.stop()
        confined.value.relayTimer = nil
        relayWakeup = nil
    }
}
