import DBusKit
import Doctor

/// Asks systemd (org.freedesktop.systemd1) for the unit's states.
enum DoctorSystemdProbe {
    /// The unit's fact; `bus` failed means the system bus could not be reached.
    static func fact(bus: Result<DoctorBus, DBusError>, unit: String) -> UnitFact {
        guard case .success(let bus) = bus else { return .noSystemd }
        switch hasOwner(bus, "org.freedesktop.systemd1") {
        case .failure(let error): return .noReply(error.summary)
        case .success(false): return .noSystemd
        case .success(true): break
        }
        let manager = "org.freedesktop.systemd1.Manager"
        let path: String
        switch bus.call("org.freedesktop.systemd1", "/org/freedesktop/systemd1", manager, "LoadUnit", [.string(unit)]) {
        case .failure(let error): return .noReply(error.summary)
        case .success(let arguments):
            do throws(DBusError) { path = try arguments.at(0).objectPath() } catch { return .noReply(error.summary) }
        }
        var values: [String: String] = [:]
        for name in ["LoadState", "ActiveState", "SubState", "UnitFileState"] {
            switch bus.call("org.freedesktop.systemd1", path, "org.freedesktop.DBus.Properties", "Get",
                            [.string("org.freedesktop.systemd1.Unit"), .string(name)]) {
            case .failure(let error): return .noReply(error.summary)
            case .success(let arguments):
                do throws(DBusError) { values[name] = try arguments.at(0).string() } catch { return .noReply(error.summary) }
            }
        }
        if values["LoadState"] == "not-found" { return .notInstalled }
        return .loaded(UnitState(active: values["ActiveState"] ?? "", sub: values["SubState"] ?? "",
                                 fileState: values["UnitFileState"] ?? ""))
    }

    /// The unit's `IPAddressAllow=` and `IPAddressDeny=` (properties of `org.freedesktop.systemd1.Service`).
    static func addressRules(bus: Result<DoctorBus, DBusError>, unit: String) -> UnitAddressFact {
        guard case .success(let bus) = bus else { return .unknown("the system bus cannot be reached") }
        guard case .success(true) = hasOwner(bus, "org.freedesktop.systemd1") else { return .unknown("systemd is not on the system bus") }
        let path: String
        switch bus.call("org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "GetUnit", [.string(unit)]) {
        case .failure: return .unknown("systemd has not loaded \(unit)")
        case .success(let arguments):
            do throws(DBusError) { path = try arguments.at(0).objectPath() } catch { return .unknown(error.summary) }
        }
        var lists: [[AddressPrefix]] = []
        for name in ["IPAddressAllow", "IPAddressDeny"] {
            switch bus.call("org.freedesktop.systemd1", path, "org.freedesktop.DBus.Properties", "Get",
                            [.string("org.freedesktop.systemd1.Service"), .string(name)]) {
            case .failure(let error): return .unknown(error.summary)
            case .success(let arguments):
                guard let value = try? arguments.at(0), let prefixes = prefixes(value) else {
                    return .unknown("systemd's \(name) is not a(iayu)")
                }
                lists.append(prefixes)
            }
        }
        return .rules(allow: lists[0], deny: lists[1])
    }

    /// An `a(iayu)` of address family, address bytes and prefix length; nil when it is not one.
    static func prefixes(_ value: DBusValue) -> [AddressPrefix]? {
        guard case .array(_, let items) = value.unwrapped else { return nil }
        var prefixes: [AddressPrefix] = []
        for item in items {
            guard case .structure(let fields) = item, fields.count == 3, case .int32 = fields[0],
                  case .bytes(let bytes) = fields[1], bytes.count == 4 || bytes.count == 16, case .uint32(let length) = fields[2] else { return nil }
            prefixes.append(AddressPrefix(bytes: bytes, length: Int(length)))
        }
        return prefixes
    }

    /// Whether someone owns `name` on the bus (`org.freedesktop.DBus.NameHasOwner`).
    static func hasOwner(_ bus: DoctorBus, _ name: String) -> Result<Bool, DBusError> {
        bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
            .flatMap { arguments in
                do throws(DBusError) { return .success(try arguments.at(0).bool()) } catch { return .failure(error) }
            }
    }
}
