/// The objects one process exports below a root that carries `org.freedesktop.DBus.ObjectManager`.
///
/// A pure value: it answers the standard interfaces (ObjectManager, Properties, Introspectable)
/// and leaves the objects' own methods to their owner.
public struct DBusObjectTree: Equatable, Sendable {
    /// The ObjectManager root, for example `/org/meshnode/hci0`.
    public let root: String
    /// Exported objects by path, each with its interfaces by name.
    public private(set) var objects: [String: [String: DBusInterfaceSpec]] = [:]

    /// The standard interfaces every object answers.
    public static let properties = "org.freedesktop.DBus.Properties"
    /// See ``properties``.
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    /// See ``properties``.
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// Creates an empty tree under `root`.
    public init(root: String) { self.root = root }

    /// Adds or replaces an object; the path must be valid and at or below the root.
    public mutating func add(path: String, interfaces: [DBusInterfaceSpec]) throws(DBusError) {
        guard DBusSyntax.isValidPath(path), path == root || path.hasPrefix(root + "/") else {
            throw .invalidArgument("object path \(path) outside \(root)")
        }
        var map: [String: DBusInterfaceSpec] = [:]
        for spec in interfaces { map[spec.name] = spec }
        objects[path] = map
    }

    /// Removes an object.
    public mutating func remove(path: String) { objects[path] = nil }

    /// Changes one property and returns the PropertiesChanged signal arguments, or nil if unchanged.
    public mutating func update(path: String, interface: String, property: String,
                                to value: DBusValue) -> [DBusValue]? {
        guard var spec = objects[path]?[interface], spec.properties[property] != value else { return nil }
        spec.properties[property] = value
        objects[path]?[interface] = spec
        return [.string(interface), .propertyMap([property: value]), .stringArray([])]
    }

    /// The current value of one property.
    public func property(path: String, interface: String, name: String) -> DBusValue? {
        objects[path]?[interface]?.properties[name]
    }

    /// GetManagedObjects' reply: every object below the root with its interfaces and properties.
    public func managedObjects() -> DBusValue {
        let entries = objects.keys.sorted().filter { $0 != root }.map { path in
            DBusDictEntry(key: .objectPath(path), value: interfacesValue(objects[path] ?? [:]))
        }
        return .dictionary(key: "o", value: "a{sa{sv}}", entries)
    }

    private func interfacesValue(_ interfaces: [String: DBusInterfaceSpec]) -> DBusValue {
        let entries = interfaces.keys.sorted().map { name in
            DBusDictEntry(key: .string(name), value: .propertyMap(interfaces[name]?.properties ?? [:]))
        }
        return .dictionary(key: "s", value: "a{sv}", entries)
    }

    /// The paths of direct children of `path` (for introspection `<node>` elements).
    public func children(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        var names = Set<String>()
        for candidate in objects.keys where candidate.hasPrefix(prefix) && candidate != path {
            if let first = candidate.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(first)) }
        }
        let rootParts = root.split(separator: "/")
        let parts = path.split(separator: "/")
        if parts.count < rootParts.count, Array(rootParts.prefix(parts.count)) == parts {
            names.insert(String(rootParts[parts.count]))
        }
        return names.sorted()
    }

    /// Whether `path` is an exported object or lies on the way to one.
    public func isKnown(_ path: String) -> Bool {
        objects[path] != nil || !children(of: path).isEmpty
    }
}
