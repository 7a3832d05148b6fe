import Glibc
import MeshNode
import MeshProtocol

/// Why a kept seen cache could not be read or written (the node then starts with an empty one).
public enum SeenCacheStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened, read or written.
    case io(path: String, step: String, errno: Int32)
    /// The file is not a seen cache of this format, or its length does not match its count.
    case malformed(path: String)
    /// The file holds more IDs than the cache can.
    case tooLarge(path: String, count: Int, capacity: Int)

    /// One sentence for the log.
    public var description: String {
        switch self {
        case .io(let path, let step, let code): "\(path): \(step) failed: \(String(cString: strerror(code)))"
        case .malformed(let path): "\(path): not a seen cache file of this version"
        case .tooLarge(let path, let count, let capacity): "\(path): \(count) IDs, more than the \(capacity) the cache holds"
        }
    }
}
