/// Why a document could not be parsed, decoded or encoded.
public enum JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document has more bytes than `JSONLimits.maxBytes`.
    case tooLarge(limit: Int)
    /// Arrays and objects nest deeper than `JSONLimits.maxDepth`.
    case tooDeep(limit: Int)
    /// The document ends inside a value.
    case unexpectedEnd
    /// A byte that cannot start or continue a value here.
    case unexpectedByte(UInt8, offset: Int)
    /// A backslash escape that JSON does not define, or a malformed `\u` escape.
    case invalidEscape(offset: Int)
    /// A lone surrogate escape, an unescaped control character or invalid UTF-8 in a string.
    case invalidString(offset: Int)
    /// A number that does not follow JSON's number grammar.
    case invalidNumber(offset: Int)
    /// Bytes other than white space after the value.
    case trailingBytes(offset: Int)
    /// The value at `path` is not of the kind the type needs.
    case typeMismatch(path: String, expected: String, found: String)
    /// The object at `path` lacks a key the type needs.
    case missingKey(path: String, key: String)
    /// The number at `path` does not fit the type (or is not integral for an integer type).
    case numberOutOfRange(path: String, text: String)
    /// A value could not be written as JSON (a NaN or infinite number).
    case notEncodable(path: String, reason: String)
    /// A type's own `init(from:)` or `encode(to:)` rejected the value.
    case rejected(path: String, reason: String)

    /// One line for logs and error replies.
    public var description: String {
        switch self {
        case .tooLarge(let limit): "document longer than \(limit) bytes"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels"
        case .unexpectedEnd: "document ends inside a value"
        case .unexpectedByte(let byte, let offset): "unexpected byte \(byte) at offset \(offset)"
        case .invalidEscape(let offset): "invalid escape at offset \(offset)"
        case .invalidString(let offset): "invalid string content at offset \(offset)"
        case .invalidNumber(let offset): "invalid number at offset \(offset)"
        case .trailingBytes(let offset): "bytes after the value at offset \(offset)"
        case .typeMismatch(let path, let expected, let found): "\(path): expected \(expected), found \(found)"
        case .missingKey(let path, let key): "\(path): missing key '\(key)'"
        case .numberOutOfRange(let path, let text): "\(path): number \(text) out of range"
        case .notEncodable(let path, let reason): "\(path): not encodable: \(reason)"
        case .rejected(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// Renders a coding path as `$.a.b[2]`.
func jsonPath(_ path: [any CodingKey]) -> String {
    path.reduce("$") { text, key in
        if let index = key.intValue { return text + "[\(index)]" }
        return text + "." + key.stringValue
    }
}
