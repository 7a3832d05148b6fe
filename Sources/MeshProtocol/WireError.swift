/// Why bytes from outside could not be decoded into a protocol value.
public enum WireError: Error, Equatable, Sendable {
    /// The input ended before a field of `needed` bytes; only `remaining` were left.
    case truncated(needed: Int, remaining: Int)
    /// The version byte names a format this node does not speak.
    case unsupportedVersion(UInt8)
    /// The kind byte is not one of the defined message kinds.
    case unknownKind(UInt8)
    /// Flag bits that are reserved in this version were set.
    case reservedFlags(UInt8)
    /// A count or length field exceeds the limit for that field.
    case lengthOutOfRange(field: String, value: Int, limit: Int)
    /// Bytes were left over after a complete value.
    case trailingBytes(Int)
    /// A text field is not valid UTF-8.
    case invalidText(field: String)
    /// A field holds a value that is not allowed (for example a zero ID).
    case invalidField(String)
}
