#if canImport(FoundationEssentials)
import FoundationEssentials  // JSON, Date and ProcessInfo without ICU's 30 MB of data
#else
import Foundation
#endif

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

/// A control request line: `{"id": 1, "command": "send", "text": "...", "to": null}`.
public struct ControlRequest: Codable, Equatable, Sendable {
    /// Echoed in the reply; may be absent.
    public var id: ControlRequestID?
    /// `send`, `peers`, `stats`, `status`, `id` or `watch`.
    public var command: String
    /// The chat text (`send`).
    public var text: String?
    /// The destination node ID, 32 hex digits; absent or null to broadcast (`send`).
    public var to: String?

    /// Creates a request.
    public init(id: ControlRequestID?, command: String, text: String? = nil, to: String? = nil) {
        self.id = id
        self.command = command
        self.text = text
        self.to = to
    }
}

/// The `error` object of a failed reply.
public struct ControlErrorBody: Codable, Equatable, Sendable {
    /// A `ControlErrorCode` raw value (clients must accept unknown codes).
    public var code: String
    /// A human-readable message.
    public var message: String

    /// Creates an error body.
    public init(code: ControlErrorCode, message: String) {
        self.code = code.rawValue
        self.message = message
    }
}

/// A reply line: `{"id":1,"ok":true,"result":{...}}` or `{"id":1,"ok":false,"error":{...}}`.
///
/// `id` is always present (null when the request had none or could not be read).
public struct ControlReply<Result: Codable & Sendable>: Codable, Sendable {
    /// The request's ID.
    public var id: ControlRequestID?
    /// True for success.
    public var ok: Bool
    /// The result, on success.
    public var result: Result?
    /// The error, on failure.
    public var error: ControlErrorBody?

    private enum CodingKeys: String, CodingKey { case id, ok, result, error }

    /// Creates a successful reply.
    public init(id: ControlRequestID?, result: Result) {
        self.id = id
        ok = true
        self.result = result
    }

    /// Creates a failed reply.
    public init(id: ControlRequestID?, error: ControlErrorBody) {
        self.id = id
        ok = false
        self.error = error
    }

    /// Encodes with `id` always present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(ok, forKey: .ok)
        try container.encodeIfPresent(result, forKey: .result)
        try container.encodeIfPresent(error, forKey: .error)
    }
}

/// An event line sent to watchers: `{"event": {...}}`.
public struct ControlEventLine: Codable, Equatable, Sendable {
    /// The event.
    public var event: WatchEvent

    /// Wraps an event.
    public init(event: WatchEvent) { self.event = event }
}

/// A result type for replies that carry no result (errors).
public struct EmptyResult: Codable, Equatable, Sendable {
    /// Creates an empty result.
    public init() {}
}

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
