import DBusKit
/// The objects we export to bluetoothd: a GATT application (one service, the message and profile
/// characteristics and one characteristic per client slot)
/// and an LE advertisement. A pure value; see docs/BLUEZ.md for the layout.
public struct GATTApplication: Equatable, Sendable {
    /// The application tree, registered with GattManager1.RegisterApplication.
    public internal(set) var app: DBusObjectTree
    /// The advertisement tree, registered with LEAdvertisingManager1.RegisterAdvertisement.
    public private(set) var advertisement: DBusObjectTree
    /// `/org/meshnode/<adapter>/app`.
    public let appPath: String
    /// The service object.
    public let servicePath: String
    /// The message characteristic object.
    public let messagePath: String
    /// The profile characteristic object.
    public let profilePath: String
    /// The client slot characteristic objects, slot 0 first (`char2`, `char3`, …).
    public let slotPaths: [String]
    /// `/org/meshnode/<adapter>/adv`.
    public let advertisementPath: String

    /// The message characteristic's flags. `write-without-response` makes bluetoothd complete every ATT
    /// write to it (Write Request or Write Command) before it calls our `WriteValue`, so no write is ever
    /// pending in bluetoothd when a link drops (docs/BLUEZ.md, "Why write-without-response").
    public static let messageFlags = ["write", "write-without-response", "notify"]
    /// A client slot's flags: `write` only, so that a claim can be refused with an ATT error; a client
    /// writes only its empty claim here and every frame to the message characteristic.
    public static let slotFlags = ["write", "notify"]

    /// Builds the objects for a validated configuration.
    public init(configuration: BlueZConfiguration) throws(DBusError) {
        let base = "/org/meshnode/" + configuration.adapter
        appPath = base + "/app"
        let service = appPath + "/service0"
        servicePath = service
        messagePath = service + "/char0"
        profilePath = service + "/char1"
        let slotUUIDs = configuration.slotUUIDs
        slotPaths = slotUUIDs.indices.map { service + "/char\($0 + 2)" }
        advertisementPath = base + "/adv"
        let options = DBusArgumentSpec("options", "a{sv}")
        let characteristicMethods = [
            DBusMethodSpec("ReadValue", inputs: [options], outputs: [.init("value", "ay")]),
            DBusMethodSpec("WriteValue", inputs: [.init("value", "ay"), options]),
            DBusMethodSpec("StartNotify"),
            DBusMethodSpec("StopNotify"),
        ]
        app = DBusObjectTree(root: appPath)
        try app.add(path: servicePath, interfaces: [DBusInterfaceSpec(BlueZ.service, properties: [
            "UUID": .string(configuration.serviceUUID), "Primary": .boolean(true),
        ])])
        try app.add(path: messagePath, interfaces: [DBusInterfaceSpec(BlueZ.characteristic, methods: characteristicMethods,
            properties: [
                "UUID": .string(configuration.messageCharacteristicUUID), "Service": .objectPath(servicePath),
                "Flags": .stringArray(Self.messageFlags), "Value": .bytes([]), "Notifying": .boolean(false),
            ])])
        try app.add(path: profilePath, interfaces: [DBusInterfaceSpec(BlueZ.characteristic, methods: characteristicMethods,
            properties: [
                "UUID": .string(configuration.profileCharacteristicUUID), "Service": .objectPath(servicePath),
                "Flags": .stringArray(["read"]),
            ])])
        for (path, uuid) in zip(slotPaths, slotUUIDs) {
            try app.add(path: path, interfaces: [DBusInterfaceSpec(BlueZ.characteristic, methods: characteristicMethods,
                properties: [
                    "UUID": .string(uuid), "Service": .objectPath(servicePath),
                    "Flags": .stringArray(Self.slotFlags), "Value": .bytes([]), "Notifying": .boolean(false),
                ])])
        }
        advertisement = DBusObjectTree(root: advertisementPath)
        try advertisement.add(path: advertisementPath, interfaces: [DBusInterfaceSpec(BlueZ.advertisement,
            methods: [DBusMethodSpec("Release")],
            properties: [
                "Type": .string("peripheral"),
                "ServiceUUIDs": .stringArray([configuration.serviceUUID]),
                "LocalName": .string(configuration.localName),
                "Discoverable": .boolean(true),
            ])])
    }

    /// The advertisement's `LocalName`.
    public var localName: String {
        (try? advertisement.property(path: advertisementPath, interface: BlueZ.advertisement, name: "LocalName")?.string()) ?? ""
    }

    /// Sets the advertisement's `LocalName`; true when it changed. bluetoothd reads it when the
    /// advertisement is next registered (``BlueZSession`` registers it again at once).
    public mutating func setLocalName(_ name: String) -> Bool {
        advertisement.update(path: advertisementPath, interface: BlueZ.advertisement, property: "LocalName", to: .string(name)) != nil
    }

    /// Sets the message characteristic's Notifying property; returns PropertiesChanged arguments when it changed.
    public mutating func setNotifying(_ on: Bool) -> [DBusValue]? {
        app.update(path: messagePath, interface: BlueZ.characteristic, property: "Notifying", to: .boolean(on))
    }

    /// Whether a peer subscribed to the message characteristic.
    public var isNotifying: Bool {
        (try? app.property(path: messagePath, interface: BlueZ.characteristic, name: "Notifying")?.bool()) ?? false
    }

    /// The PropertiesChanged arguments that send `frame` as a notification (always emitted, even if unchanged).
    public mutating func notification(_ frame: [UInt8]) -> [DBusValue] {
        _ = app.update(path: messagePath, interface: BlueZ.characteristic, property: "Value", to: .bytes(frame))
        return [.string(BlueZ.characteristic), .propertyMap(["Value": .bytes(frame)]), .stringArray([])]
    }

    /// Parses a call to one of our own objects into a request; nil when the call is not for us.
    public func request(path: String, interface: String?, member: String,
                        arguments: DBusArguments) -> Result<GATTRequest, DBusError>? {
        let characteristic = interface == nil || interface == BlueZ.characteristic
        if characteristic, let slot = slotPaths.firstIndex(of: path) {
            return slotRequest(slot, member: member, arguments: arguments)
        }
        switch (path, member) {
        case (messagePath, "WriteValue") where characteristic:
            return Result { () throws(DBusError) -> GATTRequest in
                let bytes = try arguments.at(0).bytes()
                let options = try GATTOptions(try arguments.at(1))
                guard bytes.count <= GATTRequest.maxValueLength else {
                    throw .limitExceeded("write of \(bytes.count) bytes")
                }
                return .write(bytes, options)
            }
        case (messagePath, "StartNotify") where characteristic: return .success(.startNotify)
        case (messagePath, "StopNotify") where characteristic: return .success(.stopNotify)
        case (messagePath, "ReadValue") where characteristic: return .success(.readMessage)
        case (profilePath, "ReadValue") where characteristic:
            return Result { () throws(DBusError) -> GATTRequest in .readProfile(try GATTOptions(try arguments.at(0))) }
        case (profilePath, "WriteValue") where characteristic, (profilePath, "StartNotify") where characteristic:
            return .success(.unsupported(member))
        case (advertisementPath, "Release") where interface == nil || interface == BlueZ.advertisement:
            return .success(.releaseAdvertisement)
        default:
            return nil
        }
    }
}

/// The options BlueZ passes to our characteristic methods (`a{sv}`).
public struct GATTOptions: Equatable, Sendable {
    /// The remote device object, when given.
    public var device: String?
    /// The connection's ATT MTU, when given.
    public var mtu: Int?
    /// The value offset (0 unless a long read or write).
    public var offset: Int

    /// Decodes the options dictionary; unknown keys are ignored, known keys must have their type.
    public init(_ value: DBusValue) throws(DBusError) {
        let map = try value.stringKeyed()
        device = try map["device"]?.objectPath()
        mtu = try map["mtu"].map { v throws(DBusError) in Int(try v.uint16()) }
        offset = try map["offset"].map { v throws(DBusError) in Int(try v.uint16()) } ?? 0
    }

    /// Options built directly (tests).
    public init(device: String?, mtu: Int?, offset: Int) {
        self.device = device
        self.mtu = mtu
        self.offset = offset
    }
}

/// A request bluetoothd made on one of our objects.
public enum GATTRequest: Equatable, Sendable {
    /// The largest characteristic value ATT allows.
    public static let maxValueLength = 512
    /// A peer wrote a frame to the message characteristic.
    case write([UInt8], GATTOptions)
    /// A peer wrote to a client slot's characteristic: a claim (empty) or a frame (``ClientSlots``).
    case slotWrite(Int, [UInt8], GATTOptions)
    /// The first peer subscribed to a client slot's characteristic (true), or the last one left (false).
    case slotNotify(Int, Bool)
    /// A peer subscribed to the message characteristic.
    case startNotify
    /// A peer unsubscribed.
    case stopNotify
    /// A peer read the message characteristic (answered with an empty value).
    case readMessage
    /// A peer read the profile characteristic.
    case readProfile(GATTOptions)
    /// A method the object does not support.
    case unsupported(String)
    /// bluetoothd dropped our advertisement.
    case releaseAdvertisement
}
