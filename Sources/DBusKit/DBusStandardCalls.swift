extension DBusObjectTree {
    /// Answers Introspectable, Properties and ObjectManager calls; nil for any other interface.
    public func answerStandard(path: String, interface: String?, member: String,
                               arguments: DBusArguments) -> DBusCallOutcome? {
        switch (interface, member) {
        case (Self.introspectable, "Introspect"), (nil, "Introspect"):
            return .reply([.string(DBusIntrospection.xml(for: path, in: self))])
        case (Self.objectManager, "GetManagedObjects"), (nil, "GetManagedObjects"):
            guard path == root else { return unknownMethod(member) }
            return .reply([managedObjects()])
        case (Self.properties, "Get"):
            do {
                let iface = try arguments.at(0).string()
                let name = try arguments.at(1).string()
                guard let interfaces = objects[path] else { return unknownObject(path) }
                guard let spec = interfaces[iface] else { return unknownInterface(iface) }
                guard let value = spec.properties[name] else { return unknownProperty(name) }
                return .reply([.variant(value)])
            } catch { return invalidArgs(error) }
        case (Self.properties, "GetAll"):
            do {
                let iface = try arguments.at(0).string()
                guard let interfaces = objects[path] else { return unknownObject(path) }
                guard let spec = interfaces[iface] else {
                    return [Self.properties, Self.introspectable, Self.objectManager].contains(iface)
                        ? .reply([.propertyMap([:])]) : unknownInterface(iface)
                }
                return .reply([.propertyMap(spec.properties)])
            } catch { return invalidArgs(error) }
        case (Self.properties, "Set"):
            do {
                let iface = try arguments.at(0).string()
                let name = try arguments.at(1).string()
                _ = try arguments.at(2)
                guard let interfaces = objects[path] else { return unknownObject(path) }
                guard let spec = interfaces[iface] else { return unknownInterface(iface) }
                guard spec.properties[name] != nil else { return unknownProperty(name) }
                return .error(name: "org.freedesktop.DBus.Error.PropertyReadOnly", text: "\(name) is read-only")
            } catch { return invalidArgs(error) }
        case (Self.introspectable, _), (Self.properties, _), (Self.objectManager, _):
            return unknownMethod(member)
        default:
            return nil
        }
    }

    private func unknownMethod(_ member: String) -> DBusCallOutcome {
        .error(name: "org.freedesktop.DBus.Error.UnknownMethod", text: "no method \(member)")
    }
    private func unknownObject(_ path: String) -> DBusCallOutcome {
        .error(name: "org.freedesktop.DBus.Error.UnknownObject", text: "no object \(path)")
    }
    private func unknownInterface(_ name: String) -> DBusCallOutcome {
        .error(name: "org.freedesktop.DBus.Error.UnknownInterface", text: "no interface \(name)")
    }
    private func unknownProperty(_ name: String) -> DBusCallOutcome {
        .error(name: "org.freedesktop.DBus.Error.UnknownProperty", text: "no property \(name)")
    }
    private func invalidArgs(_ error: any Error) -> DBusCallOutcome {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", text: "\(error)")
    }
}
