import MeshProtocol

/// Parsers (and printers) for the value types meshnoded.conf uses.
enum ConfigValue {
    /// Decimal integer within `range`.
    static func integer<T: FixedWidthInteger>(_ text: String, in range: ClosedRange<T>) throws(InvalidValue) -> T {
        guard text.utf8.count <= 20, let value = T(text, radix: 10), range.contains(value) else {
            throw InvalidValue(expected: "an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// Decimal fraction within `range`, such as `0.25`.
    static func fraction(_ text: String, in range: ClosedRange<Double>) throws(InvalidValue) -> Double {
        guard text.utf8.count <= 20, let value = Double(text), value.isFinite, range.contains(value) else {
            throw InvalidValue(expected: "a number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// `true`/`false` (also `yes`/`no`, `on`/`off`, `1`/`0`).
    static func bool(_ text: String) throws(InvalidValue) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw InvalidValue(expected: "true or false")
        }
    }

    /// One of an enumeration's raw values.
    static func choice<E: RawRepresentable & CaseIterable>(_ text: String, of _: E.Type) throws(InvalidValue) -> E
    where E.RawValue == String {
        guard let value = E(rawValue: text) else {
            throw InvalidValue(expected: "one of " + E.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    /// A duration written as digits and a unit: `500ms`, `10s`, `2m`, `1h`, within `range`.
    static func duration(_ text: String, in range: ClosedRange<Duration>) throws(InvalidValue) -> Duration {
        let expected = InvalidValue(
            expected: "a duration like 500ms, 10s, 2m or 1h in \(format(range.lowerBound))...\(format(range.upperBound))")
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 9, let number = Int64(digits) else { throw expected }
        let value: Duration
        switch unit {
        case "ms": value = .milliseconds(number)
        case "s": value = .seconds(number)
        case "m": value = .seconds(number * 60)
        case "h": value = .seconds(number * 3600)
        default: throw expected
        }
        guard range.contains(value) else { throw expected }
        return value
    }

    /// Prints a duration in the largest unit that keeps it exact, as `duration` reads it.
    static func format(_ duration: Duration) -> String { DurationText.format(duration) }

    /// Printable text of 1...`maxBytes` UTF-8 bytes without control characters.
    static func text(_ text: String, maxBytes: Int) throws(InvalidValue) -> String {
        guard !text.isEmpty, text.utf8.count <= maxBytes,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw InvalidValue(expected: "printable text of 1...\(maxBytes) bytes")
        }
        return text
    }

    /// An absolute path of at most `maxBytes` bytes without control characters.
    static func absolutePath(_ text: String, maxBytes: Int = 4096) throws(InvalidValue) -> String {
        guard text.hasPrefix("/"), text.utf8.count <= maxBytes,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw InvalidValue(expected: "an absolute path of at most \(maxBytes) bytes")
        }
        return text
    }

    /// A comma-separated list; blanks around items and empty items are dropped.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
