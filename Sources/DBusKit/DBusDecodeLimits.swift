import CDBus
import Glibc

/// Bounds applied while decoding a message, so hostile or broken input cannot exhaust memory.
public struct DBusDecodeLimits: Sendable, Equatable {
    /// Deepest container nesting accepted.
    public var maxDepth: Int
    /// Most elements accepted in one array or dictionary.
    public var maxContainerElements: Int
    /// Most values accepted in one message, counting every nested value.
    public var maxTotalValues: Int
    /// Longest string or byte array accepted, in bytes.
    public var maxBytes: Int
    /// Longest wire message accepted by ``DBusMessage/demarshal(_:)``.
    public var maxMessageBytes: Int

    /// Creates limits.
    public init(maxDepth: Int, maxContainerElements: Int, maxTotalValues: Int, maxBytes: Int, maxMessageBytes: Int) {
        self.maxDepth = maxDepth
        self.maxContainerElements = maxContainerElements
        self.maxTotalValues = maxTotalValues
        self.maxBytes = maxBytes
        self.maxMessageBytes = maxMessageBytes
    }

    /// Enough for BlueZ's GetManagedObjects on a busy adapter.
    public static let standard = DBusDecodeLimits(maxDepth: 32, maxContainerElements: 4096,
                                                  maxTotalValues: 200_000, maxBytes: 65_536,
                                                  maxMessageBytes: 8 << 20)
    /// For small replies such as error texts.
    public static let small = DBusDecodeLimits(maxDepth: 4, maxContainerElements: 16, maxTotalValues: 64,
                                               maxBytes: 4096, maxMessageBytes: 65_536)
}
