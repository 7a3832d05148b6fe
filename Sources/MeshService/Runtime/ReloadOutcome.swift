import MeshConfig

/// What the reloads since start could not do: settings that wait for a restart, and why the last
/// reload was refused. A value: ``DaemonRunner`` records each reload, `status` reports it.
public struct ReloadOutcome: Equatable, Sendable {
    /// Settings (`section.key`) whose file value differs from the running one and that only a
    /// restart applies, sorted.
    public var restartNeededFor: [String] = []
    /// Why the last reload was refused; nil when it loaded (or none happened).
    public var refusedReason: String?

    /// No reload yet.
    public init() {}

    /// A reload that loaded `reloaded` while the daemon runs with `running`: what it applied is
    /// forgotten, what waits for a restart is listed; a refusal before it is cleared.
    public mutating func loaded(_ reloaded: DaemonSettings, running: DaemonSettings) {
        restartNeededFor = reloaded.restartNeeded(comparedTo: running)
        refusedReason = nil
    }

    /// A reload refused for `reason`; what an earlier reload found stays.
    public mutating func refused(_ reason: String) {
        refusedReason = reason
    }

    /// The journal line for the reload that led here.
    public var logLine: String {
        if let refusedReason { return "reload refused, keeping the running configuration: \(refusedReason)" }
        guard !restartNeededFor.isEmpty else { return "reloaded log level and relay table" }
        return "reloaded log level and relay table; restart needed for: \(restartNeededFor.joined(separator: ", "))"
    }
}
