/// Why a control line did not decode.
public enum ControlJSONError: Error, Equatable, Sendable {
    /// The line is longer than `ControlJSON.maxLineBytes`.
    case tooLong(limit: Int)
    /// Arrays and objects nest deeper than `ControlJSON.maxDepth`.
    case tooDeep(limit: Int)
    /// `JSONDecoder` refused the line: not JSON, or not the shape of the type (its description).
    case notDecodable(String)
}
