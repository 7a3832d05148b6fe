/// The error codes a control reply can carry (`error.code`).
public enum ControlErrorCode: String, Codable, Sendable, CaseIterable {
    /// The request is not valid JSON or lacks a required field.
    case badRequest = "bad_request"
    /// The `command` is not one the node knows.
    case unknownCommand = "unknown_command"
    /// The destination node is not known.
    case unknownNode = "unknown_node"
    /// The message text is longer than the node allows.
    case tooLong = "too_long"
    /// The node cannot do this yet (still starting or stopping).
    case notReady = "not_ready"
    /// `send` found no neighbour, ready or in its grace: nothing was sent or held.
    case noNeighbours = "no_neighbours"
    /// A request line exceeded the size limit; the connection is closed.
    case requestTooLarge = "request_too_large"
    /// A request line was not finished in time; the connection is closed.
    case requestTimeout = "request_timeout"
    /// The server already serves its maximum number of clients; the connection is closed.
    case tooManyClients = "too_many_clients"
    /// The node failed in a way it did not expect.
    case internalError = "internal"
}

/// Why the node refused a control request.
public enum ControlFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request is malformed; the text says how.
    case badRequest(String)
    /// The destination (32 hex digits) is not a node this one knows.
    case unknownNode(String)
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
        case .tooLong(let length, let limit): "text of \(length) bytes is longer than \(limit)"
        case .notReady(let detail): "node not ready: \(detail)"
        case .noNeighbours: "no neighbour to send to (none ready, none in its departure grace): nothing was sent"
        case .internalError(let detail): "internal error: \(detail)"
        }
    }
}
