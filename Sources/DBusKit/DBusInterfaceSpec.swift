/// One exported interface: its methods, signals and current property values.
public struct DBusInterfaceSpec: Equatable, Sendable {
    /// The interface name.
    public var name: String
    /// Methods, in introspection order.
    public var methods: [DBusMethodSpec]
    /// Signals, in introspection order.
    public var signals: [DBusMethodSpec]
    /// Property values by name (all read-only for BlueZ objects).
    public var properties: [String: DBusValue]

    /// Creates an interface description.
    public init(_ name: String, methods: [DBusMethodSpec] = [], signals: [DBusMethodSpec] = [],
                properties: [String: DBusValue] = [:]) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }
}
