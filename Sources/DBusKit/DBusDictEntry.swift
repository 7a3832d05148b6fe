/// One key/value pair of a D-Bus dictionary.
public struct DBusDictEntry: Equatable, Sendable {
    /// The key; always a basic type.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
