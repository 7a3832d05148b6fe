import BoundedJSON

/// JSON-lines encoding shared by server and client, through `BoundedJSON` (no Foundation: its
/// JSON coders would link ICU's data into both binaries; docs/PERFORMANCE.md, "Footprint").
public enum ControlJSON {
    /// Encodes a value as one line of compact JSON with sorted keys, ending in a newline (the bytes
    /// Foundation's `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`).
    public static func line<Value: Encodable>(_ value: Value) -> [UInt8] {
        guard let bytes = try? JSONCodec.encode(value) else {
            return Array(#"{"id":null,"ok":false,"error":{"code":"internal","message":"reply not encodable"}}"#.utf8) + [10]
        }
        return bytes + [UInt8(ascii: "\n")]
    }

    /// Encodes a failed reply line.
    public static func errorLine(id: ControlRequestID?, code: ControlErrorCode, message: String) -> [UInt8] {
        line(ControlReply<EmptyResult>(id: id, error: ControlErrorBody(code: code, message: message)))
    }

    /// What a line may be: as long as the longest reply relayctl reads (8 MiB; requests stop at
    /// 16 KiB before they get here) and 32 levels deep.
    public static let limits = JSONLimits(maxBytes: 8 << 20, maxDepth: 32)

    /// Decodes one line (without its newline): strict JSON within `limits`.
    public static func decode<Value: Decodable>(_ type: Value.Type, from line: some Collection<UInt8>) throws(JSONError) -> Value {
        try JSONCodec.decode(type, from: line, limits: limits)
    }
}
