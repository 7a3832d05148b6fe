import Foundation

/// A fresh directory under /tmp, removed when the value goes away.
public final class TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        // mkdtemp replaces the trailing six X characters with a unique suffix.
        var template = Array(("/tmp/svc-" + String(repeating: "X", count: 6)).utf8CString)
        guard let result = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: result)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
