/// Builds `org.freedesktop.DBus.Introspectable` XML for a ``DBusObjectTree``.
public enum DBusIntrospection {
    /// The document type line D-Bus introspection data starts with.
    public static let doctype = "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
        + "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">"

    /// The XML describing `path`: its interfaces (including the standard ones) and child nodes.
    public static func xml(for path: String, in tree: DBusObjectTree) -> String {
        var lines = [doctype, "<node>"]
        if let interfaces = tree.objects[path] {
            lines += standard(isRoot: path == tree.root)
            for name in interfaces.keys.sorted() {
                guard let spec = interfaces[name] else { continue }
                lines += describe(spec)
            }
        } else if path == tree.root {
            lines += standard(isRoot: true)
        }
        for child in tree.children(of: path) { lines.append("  <node name=\"\(escape(child))\"/>") }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes the five XML special characters.
    public static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }

    private static func standard(isRoot: Bool) -> [String] {
        var specs = [
            DBusInterfaceSpec(DBusObjectTree.introspectable,
                              methods: [DBusMethodSpec("Introspect", outputs: [.init("xml", "s")])]),
            DBusInterfaceSpec(DBusObjectTree.properties, methods: [
                DBusMethodSpec("Get", inputs: [.init("interface", "s"), .init("name", "s")], outputs: [.init("value", "v")]),
                DBusMethodSpec("GetAll", inputs: [.init("interface", "s")], outputs: [.init("properties", "a{sv}")]),
                DBusMethodSpec("Set", inputs: [.init("interface", "s"), .init("name", "s"), .init("value", "v")]),
            ], signals: [DBusMethodSpec("PropertiesChanged", inputs: [
                .init("interface", "s"), .init("changed", "a{sv}"), .init("invalidated", "as"),
            ])]),
        ]
        if isRoot {
            specs.append(DBusInterfaceSpec(DBusObjectTree.objectManager,
                methods: [DBusMethodSpec("GetManagedObjects", outputs: [.init("objects", "a{oa{sa{sv}}}")])],
                signals: [
                    DBusMethodSpec("InterfacesAdded", inputs: [.init("object", "o"), .init("interfaces", "a{sa{sv}}")]),
                    DBusMethodSpec("InterfacesRemoved", inputs: [.init("object", "o"), .init("interfaces", "as")]),
                ]))
        }
        return specs.flatMap(describe)
    }

    private static func describe(_ spec: DBusInterfaceSpec) -> [String] {
        var lines = ["  <interface name=\"\(escape(spec.name))\">"]
        for method in spec.methods {
            lines.append("    <method name=\"\(escape(method.name))\">")
            for arg in method.inputs { lines.append(argument(arg, direction: "in")) }
            for arg in method.outputs { lines.append(argument(arg, direction: "out")) }
            lines.append("    </method>")
        }
        for signal in spec.signals {
            lines.append("    <signal name=\"\(escape(signal.name))\">")
            for arg in signal.inputs { lines.append(argument(arg, direction: nil)) }
            lines.append("    </signal>")
        }
        for name in spec.properties.keys.sorted() {
            guard let value = spec.properties[name] else { continue }
            lines.append("    <property name=\"\(escape(name))\" type=\"\(escape(value.signature))\" access=\"read\"/>")
        }
        lines.append("  </interface>")
        return lines
    }

    private static func argument(_ arg: DBusArgumentSpec, direction: String?) -> String {
        let dir = direction.map { " direction=\"\($0)\"" } ?? ""
        return "      <arg name=\"\(escape(arg.name))\" type=\"\(escape(arg.signature))\"\(dir)/>"
    }
}
