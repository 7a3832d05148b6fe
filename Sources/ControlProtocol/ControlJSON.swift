#if canImport(FoundationEssentials)
import FoundationEssentials  // JSON, Date and ProcessInfo without ICU's 30 MB of data
#else
import Foundation
#endif

/// JSON-lines encoding shared by server and client.
public enum ControlJSON {
    /// Encodes a value as one line of compact JSON with sorted keys, ending in a newline.
    public static func line<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return Array(#"{"id":null,"ok":false,"error":{"code":"internal","message":"reply not encodable"}}"#.utf8) + [10]
        }
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Encodes a failed reply line.
    public static func errorLine(id: ControlRequestID?, code: ControlErrorCode, message: String) -> [UInt8] {
        line(ControlReply<EmptyResult>(id: id, error: ControlErrorBody(code: code, message: message)))
    }
}
