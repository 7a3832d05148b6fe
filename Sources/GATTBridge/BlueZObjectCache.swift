import DBusKit
/// A mirror of bluetoothd's object tree, kept from GetManagedObjects and the ObjectManager and
/// Properties signals. A pure value; all input is bounded and validated.
public struct BlueZObjectCache: Equatable, Sendable {
    /// Most objects kept; further additions are refused (a busy room has hundreds of devices).
    public static let capacity = 4096

    /// Properties by object path and interface.
    public private(set) var objects: [String: [String: [String: DBusValue]]] = [:]

    /// A device as far as the transport cares.
    public struct Device: Equatable, Sendable {
        /// The device object path.
        public var path: String
        /// Its address, normalised.
        public var address: String
        /// Whether an LE connection exists.
        public var connected: Bool
        /// Whether GATT discovery finished.
        public var servicesResolved: Bool
        /// Advertised or discovered service UUIDs, lowercased.
        public var uuids: [String]
        /// The last RSSI, if reported.
        public var rssi: Int?
    }

    /// Creates an empty cache.
    public init() {}

    /// Forgets everything (bluetoothd went away).
    public mutating func clear() { objects.removeAll() }

    /// Replaces the contents with a GetManagedObjects reply (`a{oa{sa{sv}}}`).
    public mutating func load(managedObjects value: DBusValue) throws(DBusError) {
        var fresh: [String: [String: [String: DBusValue]]] = [:]
        let paths = try value.pathKeyed()
        guard paths.count <= Self.capacity else { throw .limitExceeded("\(paths.count) BlueZ objects") }
        for (path, interfaces) in paths { fresh[path] = try interfaces.interfaceMap() }
        objects = fresh
    }

    /// Applies InterfacesAdded.
    public mutating func interfacesAdded(path: String, interfaces: DBusValue) throws(DBusError) {
        let map = try interfaces.interfaceMap()
        guard objects[path] != nil || objects.count < Self.capacity else {
            throw .limitExceeded("more than \(Self.capacity) BlueZ objects")
        }
        for (name, props) in map { objects[path, default: [:]][name] = props }
    }

    /// Applies InterfacesRemoved.
    public mutating func interfacesRemoved(path: String, interfaces: [String]) {
        for name in interfaces { objects[path]?[name] = nil }
        if objects[path]?.isEmpty == true { objects[path] = nil }
    }

    /// Applies PropertiesChanged to an object we know; unknown objects are ignored.
    public mutating func propertiesChanged(path: String, interface: String, changed: [String: DBusValue],
                                           invalidated: [String]) {
        guard objects[path]?[interface] != nil else { return }
        for (name, value) in changed { objects[path]?[interface]?[name] = value }
        for name in invalidated { objects[path]?[interface]?[name] = nil }
    }

    /// Removes every object at or below `prefix` (an adapter that was unplugged).
    public mutating func removeSubtree(_ prefix: String) {
        for path in objects.keys where path == prefix || path.hasPrefix(prefix + "/") { objects[path] = nil }
    }

    /// The Adapter1 properties of an adapter, when it exists.
    public func adapter(_ path: String) -> [String: DBusValue]? { objects[path]?[BlueZ.adapter] }

    /// Whether the adapter exists and is powered.
    public func isPowered(_ path: String) -> Bool {
        (try? adapter(path)?["Powered"]?.bool()) ?? false
    }

    /// A device, when `path` is a Device1 object with a valid address.
    public func device(_ path: String) -> Device? {
        guard let props = objects[path]?[BlueZ.device],
              let raw = try? props["Address"]?.string(), let address = AddressFilter.normalize(raw) else { return nil }
        let uuids = ((try? props["UUIDs"]?.stringArray()) ?? []).map { $0.lowercased() }
        let rssi = (try? props["RSSI"]?.int16()).map(Int.init)
        return Device(path: path, address: address, connected: (try? props["Connected"]?.bool()) ?? false,
                      servicesResolved: (try? props["ServicesResolved"]?.bool()) ?? false, uuids: uuids, rssi: rssi)
    }

    /// Every device below an adapter, in path order.
    public func devices(under adapterPath: String) -> [Device] {
        objects.keys.filter { $0.hasPrefix(adapterPath + "/dev_") && !$0.dropFirst(adapterPath.count + 1).contains("/") }
            .sorted().compactMap(device)
    }

    /// The device's GATT characteristic with this UUID inside a service with `serviceUUID`.
    public func characteristic(of devicePath: String, serviceUUID: String, uuid: String) -> (path: String, mtu: Int?)? {
        for path in objects.keys.sorted() where path.hasPrefix(devicePath + "/") {
            guard let props = objects[path]?[BlueZ.characteristic],
                  (try? props["UUID"]?.string())?.lowercased() == uuid,
                  let service = try? props["Service"]?.objectPath(),
                  (try? objects[service]?[BlueZ.service]?["UUID"]?.string())?.lowercased() == serviceUUID
            else { continue }
            return (path, (try? props["MTU"]?.uint16()).map(Int.init))
        }
        return nil
    }

    /// The device object a GATT object path belongs to (`.../dev_X/service000a/char000b` -> `.../dev_X`).
    public static func devicePath(containing path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true)
        while let last = parts.last, !last.hasPrefix("dev_") { parts.removeLast() }
        return parts.isEmpty ? nil : "/" + parts.joined(separator: "/")
    }
}

/// BlueZ names used throughout.
public enum BlueZ {
    /// The daemon's bus name.
    public static let bus = "org.bluez"
    /// Adapter1.
    public static let adapter = "org.bluez.Adapter1"
    /// Device1.
    public static let device = "org.bluez.Device1"
    /// GattManager1.
    public static let gattManager = "org.bluez.GattManager1"
    /// GattService1.
    public static let service = "org.bluez.GattService1"
    /// GattCharacteristic1.
    public static let characteristic = "org.bluez.GattCharacteristic1"
    /// LEAdvertisingManager1.
    public static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    /// LEAdvertisement1.
    public static let advertisement = "org.bluez.LEAdvertisement1"
}
