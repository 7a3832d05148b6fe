/// The error codes a control reply can carry (`error.code`).
public enum ControlErrorCode: String, Codable, Sendable, CaseIterable {
    /// The request is not valid JSON or lacks a required field.
    case badRequest = "bad_request"
    /// The `command` is not one the node knows.
    case unknownCommand = "unknown_command"
    /// The destination node is not known.
    case unknownNode = "unknown_node"
    /// `cancel` named no message of this node that waits for a key (sent, expired or never there).
    case unknownMessage = "unknown_message"
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
