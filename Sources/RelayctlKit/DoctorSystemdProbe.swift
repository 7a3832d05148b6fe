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

    /// Whether someone owns `name` on the bus (`org.freedesktop.DBus.NameHasOwner`).
    static func hasOwner(_ bus: DoctorBus, _ name: String) -> Result<Bool, DBusError> {
        bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
            .flatMap { arguments in
                do throws(DBusError) { return .success(try arguments.at(0).bool()) } catch { return .failure(error) }
            }
    }
}
