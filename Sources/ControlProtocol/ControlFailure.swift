/// Why the node refused a control request.
public enum ControlFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request is malformed; the text says how.
    case badRequest(String)
    /// The destination (32 hex digits) is not a node this one knows.
    case unknownNode(String)
    /// No message with this ID (32 hex digits) waits for a key here.
    case unknownMessage(String)
    /// The text has `length` UTF-8 bytes; the node accepts at most `limit`.
    case tooLong(length: Int, limit: Int)
    /// The node is not ready; the text says why.
    case notReady(String)
    /// No neighbour to send to or hold for: the message was not sent.
    case noNeighbours
    /// The node failed unexpectedly; the text says where.
    case internalError(String)

    /// The reply's error code.
    public var code: ControlErrorCode {
        switch self {
        case .badRequest: .badRequest
        case .unknownNode: .unknownNode
        case .unknownMessage: .unknownMessage
        case .tooLong: .tooLong
        case .notReady: .notReady
        case .noNeighbours: .noNeighbours
        case .internalError: .internalError
        }
    }

    /// The reply's human-readable message.
    public var description: String {
        switch self {
        case .badRequest(let detail): detail
        case .unknownNode(let node): "unknown node \(node)"
        case .unknownMessage(let id): "no message \(id) waits for a key here (sent, expired or cancelled already)"
        case .tooLong(let length, let limit): "text of \(length) bytes is longer than \(limit)"
        case .notReady(let detail): "node not ready: \(detail)"
        case .noNeighbours: "no neighbour to send to (none ready, none in its departure grace): nothing was sent"
        case .internalError(let detail): "internal error: \(detail)"
        }
    }
}
