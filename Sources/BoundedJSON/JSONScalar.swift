/// The conversions between Swift's scalar types and JSON values that `JSONEncoder` and
/// `JSONDecoder` make: integers as decimal text, floating point as Swift's shortest text without a
/// trailing `.0`, no NaN or infinity.
enum JSONScalar {
    /// The JSON form of `value` when it is a scalar, nil when it encodes itself.
    static func encode<T: Encodable>(_ value: T, path: [any CodingKey]) throws(JSONError) -> JSONValue? {
        switch value {
        case let flag as Bool: return .bool(flag)
        case let text as String: return .string(text)
        case let number as Double: return .number(try floating(number, number.description, path))
        case let number as Float: return .number(try floating(number, number.description, path))
        case let number as Int: return .number(String(number))
        case let number as Int8: return .number(String(number))
        case let number as Int16: return .number(String(number))
        case let number as Int32: return .number(String(number))
        case let number as Int64: return .number(String(number))
        case let number as UInt: return .number(String(number))
        case let number as UInt8: return .number(String(number))
        case let number as UInt16: return .number(String(number))
        case let number as UInt32: return .number(String(number))
        case let number as UInt64: return .number(String(number))
        default: return nil
        }
    }

    private static func floating(_ value: some BinaryFloatingPoint, _ text: String, _ path: [any CodingKey]) throws(JSONError) -> String {
        guard value.isFinite else { throw .notEncodable(path: jsonPath(path), reason: "\(text) is not a JSON number") }
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `value` as `T` when `T` is a scalar type, nil when `T` decodes itself.
    static func decode<T: Decodable>(_: T.Type, from value: JSONValue, path: [any CodingKey]) throws(JSONError) -> T? {
        switch T.self {
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch("bool", value, path) }
            return flag as? T
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch("string", value, path) }
            return text as? T
        case is Double.Type: return try floating(Double.self, value, path) as? T
        case is Float.Type: return try floating(Float.self, value, path) as? T
        case is Int.Type: return try integer(Int.self, value, path) as? T
        case is Int8.Type: return try integer(Int8.self, value, path) as? T
        case is Int16.Type: return try integer(Int16.self, value, path) as? T
        case is Int32.Type: return try integer(Int32.self, value, path) as? T
        case is Int64.Type: return try integer(Int64.self, value, path) as? T
        case is UInt.Type: return try integer(UInt.self, value, path) as? T
        case is UInt8.Type: return try integer(UInt8.self, value, path) as? T
        case is UInt16.Type: return try integer(UInt16.self, value, path) as? T
        case is UInt32.Type: return try integer(UInt32.self, value, path) as? T
        case is UInt64.Type: return try integer(UInt64.self, value, path) as? T
        default: return nil
        }
    }

    static func mismatch(_ expected: String, _ value: JSONValue, _ path: [any CodingKey]) -> JSONError {
        .typeMismatch(path: jsonPath(path), expected: expected, found: value.kind)
    }

    private static func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _: F.Type, _ value: JSONValue, _ path: [any CodingKey]
    ) throws(JSONError) -> F {
        guard case .number(let text) = value else { throw mismatch("number", value, path) }
        guard let number = F(text), number.isFinite else { throw .numberOutOfRange(path: jsonPath(path), text: text) }
        return number
    }

    /// Plain integer text converts exactly; a fraction or exponent (`1.0`, `1e2`) converts when the
    /// value is integral and in range, as with `JSONDecoder`.
    private static func integer<I: FixedWidthInteger>(
        _: I.Type, _ value: JSONValue, _ path: [any CodingKey]
    ) throws(JSONError) -> I {
        guard case .number(let text) = value else { throw mismatch("number", value, path) }
        if let number = I(text, radix: 10) { return number }
        let plain = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if !plain, let number = Double(text), number.isFinite, number.rounded() == number, let exact = I(exactly: number) {
            return exact
        }
        throw .numberOutOfRange(path: jsonPath(path), text: text)
    }
}
