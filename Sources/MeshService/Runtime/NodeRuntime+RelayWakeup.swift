import Dispatch
import MeshNode

extension NodeRuntime {
    /// The time the one-shot relay wake-up is armed for; only on `queue`.
    var relayWakeup: Duration? {
        get { confined.value.relayWakeup }
        _modify { yield &confined.value.relayWakeup }
    }

    /// Wakes the engine when its relay scheduler next has a relay due: managed flooding holds
    /// relays for a few milliseconds, far less than the 250 ms tick. At most one wake-up is
    /// armed, for the earliest due time; a later one is armed when it fires.
    func armRelayWakeup() {
        guard let due = engine.nextRelayDue else { return }
        if let armed = relayWakeup, armed <= due { return }
        relayWakeup = due
        let wait = max(.zero, due - now)
        let nanoseconds = Int(wait.components.seconds) * 1_000_000_000 + Int(wait.components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self, self.relayWakeup == due else { return }
            self.relayWakeup = nil
            self.perform(self.engine.sendDueRelays(now: self.now))
        }
    }
}
