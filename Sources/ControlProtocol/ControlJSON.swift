import FoundationEssentials

/// JSON-lines encoding shared by server and client: Foundation's `JSONEncoder` and `JSONDecoder`
/// (FoundationEssentials, no ICU), behind the bounds of docs/CONTROL.md.
public enum ControlJSON {
    /// The longest line `decode` reads: the longest reply relayctl accepts (8 MiB; requests stop at
    /// 16 KiB in the server's line buffer before they get here).
    public static let maxLineBytes = 8 << 20
    /// The deepest nesting of arrays and objects `decode` reads (the line's own object is level 1).
    public static let maxDepth = 32

    /// Encodes a value as one line of compact JSON with sorted keys and unescaped `/`, ending in a
    /// newline.
    public static func line<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return Array(#"{"error":{"code":"internal","message":"reply not encodable"},"id":null,"ok":false}"#.utf8) + [10]
        }
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Encodes a failed reply line.
    public static func errorLine(id: ControlRequestID?, code: ControlErrorCode, message: String) -> [UInt8] {
        line(ControlReply<EmptyResult>(id: id, error: ControlErrorBody(code: code, message: message)))
    }

    /// Decodes one line (without its newline) within `maxLineBytes` and `maxDepth`.
    public static func decode<Value: Decodable>(
        _ type: Value.Type, from line: some Collection<UInt8>
    ) throws(ControlJSONError) -> Value {
        guard line.count <= maxLineBytes else { throw .tooLong(limit: maxLineBytes) }
        guard JSONNesting.fits(line, depth: maxDepth) else { throw .tooDeep(limit: maxDepth) }
        do {
            return try JSONDecoder().decode(type, from: Data(line))
        } catch {
            throw .notDecodable(String(describing: error))
        }
    }
}
