/// Where the daemon is in its life: `status`'s `state` (docs/CONTROL.md). `NodeRuntime` holds
/// one and moves it forward only: starting, then running, then stopping.
public enum RuntimeState: String, CaseIterable, Sendable {
    /// Created; the transport and the engine's timers are not started yet.
    case starting
    /// The transport and the timers run.
    case running
    /// Stopping: timers cancelled, the transport closing its links; the relay wake-up is not armed.
    case stopping
}
