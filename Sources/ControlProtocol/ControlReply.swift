
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
