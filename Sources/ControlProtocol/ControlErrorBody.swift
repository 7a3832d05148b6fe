
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
