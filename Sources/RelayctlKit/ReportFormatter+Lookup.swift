import ControlProtocol

extension ReportFormatter {
    /// `lookup NODE`: short ID, name, distance, when heard, and how its key lookup stands.
    public func lookup(_ report: LookupReport) -> String {
        let state: String
        if report.known {
            state = report.neighbour ? "key known (neighbour)" : "key known"
        } else if report.lookingUp {
            state = "looking up (\(Self.duration(report.lookupSecondsAgo ?? 0)) so far, \(report.waitingMessages) message(s) waiting)"
        } else {
            state = "key not known"
        }
        return keyValues([
            ("node ID", report.nodeID), ("short ID", report.shortID), ("name", report.name ?? "?"),
            ("distance", report.hops.map { "\($0) hop\($0 == 1 ? "" : "s")" } ?? "?"),
            ("heard", report.lastHeardSecondsAgo.map { Self.duration($0) + " ago" } ?? "never"), ("state", state),
        ])
    }
}
