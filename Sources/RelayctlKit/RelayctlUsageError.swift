import MeshProtocol

/// A command line relayctl cannot run; printed with the usage line, exit code 64.
public struct RelayctlUsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The command whose usage to show, if known.
    public var command: String?

    /// Creates a usage error.
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The message.
    public var description: String { message }
}
