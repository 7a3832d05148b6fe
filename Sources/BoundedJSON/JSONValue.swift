/// One JSON value, as parsed from bytes or as built by `JSONCodec.encode`.
///
/// Numbers keep their text so that integers of any width and doubles convert exactly when decoded.
/// Objects keep the first value of a key that appears twice (as Foundation's JSONDecoder does).
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text (`-12`, `0.5`, `1e+16`).
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; key order is not kept (the writer sorts keys).
    case object([String: JSONValue])

    /// The name of this value's kind, for error messages.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
