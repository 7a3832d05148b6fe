
/// A request's `id`, echoed in its reply: a JSON number or string.
public enum ControlRequestID: Codable, Equatable, Sendable, CustomStringConvertible {
    /// An integer ID.
    case number(Int64)
    /// A string ID.
    case string(String)

    /// Decodes a number or a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the number or string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        }
    }

    /// The ID as JSON would print it.
    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .string(let text): text
        }
    }
}
