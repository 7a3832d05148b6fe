/// One argument of an exported method or signal.
public struct DBusArgumentSpec: Equatable, Sendable {
    /// The argument's name.
    public var name: String
    /// The argument's signature.
    public var signature: String
    /// Creates an argument description.
    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}
