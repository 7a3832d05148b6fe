import DBusKit
import Doctor

/// Asks the system bus about bluetoothd and the configured adapter (one `GetManagedObjects`).
enum DoctorBlueZProbe {
    /// bluetoothd's and the adapter's facts; `bus` nil means the system bus could not be reached.
    static func facts(bus: Result<DoctorBus, DBusError>, adapter name: String) -> (BluetoothdFact, AdapterFact) {
        let connected: DoctorBus
        switch bus {
        case .success(let value): connected = value
        case .failure(let error): return (.noSystemBus(error.summary), .unknown)
        }
        return facts(bus: connected, adapter: name)
    }

    private static func facts(bus: DoctorBus, adapter name: String) -> (BluetoothdFact, AdapterFact) {
        switch DoctorSystemdProbe.hasOwner(bus, "org.bluez") {
        case .failure(let error): return (.noReply(error.summary), .unknown)
        case .success(false): return (.absent, .unknown)
        case .success(true): break
        }
        let objects: [String: DBusValue]
        switch bus.call("org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", limits: .standard) {
        case .failure(.remote(let name, let message)) where name == "org.freedesktop.DBus.Error.AccessDenied":
            return (.denied(message), .unknown)
        case .failure(let error): return (.noReply(error.summary), .unknown)
        case .success(let arguments):
            do throws(DBusError) { objects = try arguments.at(0).pathKeyed() } catch { return (.noReply(error.summary), .unknown) }
        }
        var adapters: [String: [String: [String: DBusValue]]] = [:]
        for (path, value) in objects where path.hasPrefix("/org/bluez/") {
            guard let interfaces = try? value.interfaceMap(), interfaces["org.bluez.Adapter1"] != nil else { continue }
            adapters[String(path.dropFirst("/org/bluez/".count))] = interfaces
        }
        let version = adapters.values.lazy.compactMap { try? $0["org.bluez.Adapter1"]?["Modalias"]?.string() }
            .compactMap { BlueZVersion(modalias: $0) }.first
        guard let interfaces = adapters[name], let adapter = interfaces["org.bluez.Adapter1"] else {
            return (.reachable(version: version), .missing(others: adapters.keys.sorted()))
        }
        let state = AdapterState(
            address: (try? adapter["Address"]?.string()) ?? "(no address)",
            powered: (try? adapter["Powered"]?.bool()) ?? false,
            powerState: try? adapter["PowerState"]?.string(),
            roles: try? adapter["Roles"]?.stringArray(),
            advertising: interfaces["org.bluez.LEAdvertisingManager1"].map {
                AdvertisingInstances(supported: byte($0["SupportedInstances"]), active: byte($0["ActiveInstances"]))
            })
        return (.reachable(version: version), .present(state))
    }

    /// A `y` property as a number; 0 when absent or of another type.
    private static func byte(_ value: DBusValue?) -> Int {
        if case .byte(let number)? = value?.unwrapped { return Int(number) }
        return 0
    }
}
