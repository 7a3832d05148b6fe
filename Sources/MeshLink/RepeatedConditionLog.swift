/// Decides which lines a condition that repeats gets in the log: one when it starts, one when it
/// changes (a different summary), and one with the count when it ends. Between them each repeat
/// is quiet (debug at most). A value: no clock, no I/O; the caller logs what it returns.
public struct RepeatedConditionLog: Equatable, Sendable {
    /// What to log for one report.
    public enum Decision: Equatable, Sendable {
        /// The condition started: log it (warning).
        case started
        /// Its summary changed after `repeats` reports of the previous one: log it (warning).
        case changed(repeats: Int)
        /// The same as before: log it quietly (debug) or not at all.
        case quiet
        /// It ended after `repeats` reports: log that with the count (info).
        case ended(repeats: Int)
        /// It ended but had not been reported: log nothing.
        case none
    }

    private struct Condition: Equatable, Sendable {
        var summary: String
        var repeats: Int
    }

    private var active: [String: Condition] = [:]

    /// No condition active.
    public init() {}

    /// Reports that condition `key` holds, with a short `summary` (the error's words).
    public mutating func report(_ key: String, summary: String) -> Decision {
        guard let current = active[key] else {
            active[key] = Condition(summary: summary, repeats: 1)
            return .started
        }
        if current.summary != summary {
            active[key] = Condition(summary: summary, repeats: 1)
            return .changed(repeats: current.repeats)
        }
        active[key] = Condition(summary: summary, repeats: current.repeats + 1)
        return .quiet
    }

    /// Reports that condition `key` no longer holds.
    public mutating func clear(_ key: String) -> Decision {
        guard let current = active.removeValue(forKey: key) else { return .none }
        return .ended(repeats: current.repeats)
    }

    /// Whether `key` is active now.
    public func isActive(_ key: String) -> Bool { active[key] != nil }
}
