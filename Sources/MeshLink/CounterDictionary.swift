/// Turns a counters struct into `name: value` pairs for `relayctl stats`, so every
/// counter a module adds shows up without a hand-kept list (transports fill their
/// ``TransportStatus`` with it, the daemon its engine's groups).
public enum CounterDictionary {
    /// Every stored integer property of `counters`, by its Swift name in snake case.
    public static func make(from counters: Any) -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        for child in Mirror(reflecting: counters).children {
            guard let label = child.label else { continue }
            let value: UInt64? = switch child.value {
            case let number as UInt64: number
            case let number as Int: UInt64(max(0, number))
            default: nil
            }
            if let value { result[snakeCase(label)] = value }
        }
        return result
    }

    /// `droppedTTL` → `dropped_ttl`, `linksUp` → `links_up`: a run of capitals is one word.
    public static func snakeCase(_ name: String) -> String {
        var out = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { out += "_" }
            out += character.lowercased()
            previous = character
        }
        return out
    }
}
