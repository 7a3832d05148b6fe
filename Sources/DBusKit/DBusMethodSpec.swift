/// One exported method.
public struct DBusMethodSpec: Equatable, Sendable {
    /// The method name.
    public var name: String
    /// Input arguments.
    public var inputs: [DBusArgumentSpec]
    /// Output arguments.
    public var outputs: [DBusArgumentSpec]
    /// Creates a method description.
    public init(_ name: String, inputs: [DBusArgumentSpec] = [], outputs: [DBusArgumentSpec] = []) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
    }
}
