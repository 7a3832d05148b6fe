import Flooding

/// The journal wording of a mesh-time change (docs/OPERATIONS.md, "Clock").
enum MeshClockText {
    /// One line for the journal, such as `mesh time set: this clock is 3 d 0 h 0 min 0.2 s behind (2 neighbours agree)`.
    static func describe(_ change: MeshClockChange) -> String {
        switch change {
        case .synchronised(let offset, let votes):
            "mesh time set: this clock is \(span(offset)) (\(votes) neighbours heard)"
        case .moved(let from, let to, let votes):
            "mesh time moved: this clock was \(span(from)), now \(span(to)) (\(votes) neighbours heard)"
        }
    }

    /// The `MESHNODE_REASON` value: `clock_set` or `clock_moved`.
    static func reason(_ change: MeshClockChange) -> String {
        switch change {
        case .synchronised: "clock_set"
        case .moved: "clock_moved"
        }
    }

    /// `3 d 0 h 0 min 0.2 s behind`, `1.5 s ahead`, `in step`.
    static func span(_ offset: Int64) -> String {
        guard offset != 0 else { return "in step" }
        let magnitude = offset.magnitude
        let days = magnitude / 86_400_000, hours = magnitude / 3_600_000 % 24, minutes = magnitude / 60_000 % 60
        let seconds = Double(magnitude % 60_000) / 1000
        var parts: [String] = []
        if days > 0 { parts.append("\(days) d") }
        if days > 0 || hours > 0 { parts.append("\(hours) h") }
        if magnitude >= 60_000 { parts.append("\(minutes) min") }
        parts.append("\(seconds) s")
        return parts.joined(separator: " ") + (offset > 0 ? " behind" : " ahead")
    }
}
