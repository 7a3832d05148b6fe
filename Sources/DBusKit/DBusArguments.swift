/// Reads the arguments of a message by position, with typed errors for missing ones.
public struct DBusArguments: Sendable {
    /// The decoded arguments.
    public let values: [DBusValue]

    /// Wraps decoded arguments.
    public init(_ values: [DBusValue]) { self.values = values }

    /// The argument at `index`, or ``DBusError/malformed(_:)`` when the message is too short.
    public func at(_ index: Int) throws(DBusError) -> DBusValue {
        guard index >= 0, index < values.count else {
            throw .malformed("argument \(index) missing (have \(values.count))")
        }
        return values[index]
    }
}
