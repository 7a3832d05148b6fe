/// Turns a counters struct into `name: value` pairs for `relayctl stats`.
enum CounterDictionary {
    /// Every stored integer property of `counters`, by its Swift name in snake case.
    static func make(from counters: Any) -> [String: UInt64] {
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

    private static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "_" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}
