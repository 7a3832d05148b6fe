/// Encodes `Encodable` values to JSON bytes and decodes `Decodable` values from them, without
/// Foundation (whose JSON coders pull ICU's data into a static binary).
///
/// The output is byte for byte what `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`
/// writes; the input rules are `JSONDecoder`'s (strict RFC 8259, first of duplicate keys wins,
/// `1.0` and `1e2` decode as integers), within `JSONLimits`.
public enum JSONCodec {
    /// The compact JSON of `value`, without a trailing newline.
    public static func encode<T: Encodable>(_ value: T) throws(JSONError) -> [UInt8] {
        try JSONWriter.write(encodeValue(value))
    }

    /// The JSON value `value` encodes to.
    public static func encodeValue<T: Encodable>(_ value: T) throws(JSONError) -> JSONValue {
        let node = JSONNode()
        do {
            try JSONNodeEncoder.encode(value, into: node, path: [])
        } catch {
            throw typed(error)
        }
        return node.value
    }

    /// Parses `bytes` within `limits` and decodes a `T` from them.
    public static func decode<T: Decodable>(
        _ type: T.Type, from bytes: some Collection<UInt8>, limits: JSONLimits = .standard
    ) throws(JSONError) -> T {
        try decode(type, from: JSONParser.parse(bytes, limits: limits))
    }

    /// Decodes a `T` from a parsed value.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(JSONError) -> T {
        do {
            return try JSONValueDecoder.decode(type, from: value, path: [])
        } catch {
            throw typed(error)
        }
    }

    /// Our own errors pass through; the `DecodingError`s and `EncodingError`s that types throw
    /// from their own coding code become `.rejected`.
    private static func typed(_ error: any Error) -> JSONError {
        if let error = error as? JSONError { return error }
        if let error = error as? DecodingError {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                 .dataCorrupted(let context):
                return .rejected(path: jsonPath(context.codingPath), reason: context.debugDescription)
            @unknown default:
                return .rejected(path: "$", reason: "\(error)")
            }
        }
        if let error = error as? EncodingError, case .invalidValue(_, let context) = error {
            return .rejected(path: jsonPath(context.codingPath), reason: context.debugDescription)
        }
        return .rejected(path: "$", reason: "\(error)")
    }
}
