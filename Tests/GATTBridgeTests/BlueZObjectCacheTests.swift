import Testing
@testable import DBusKit
@testable import GATTBridge

/// The mirror of bluetoothd's objects, fed with the shapes BlueZ sends.
@Suite struct BlueZObjectCacheTests {
    let adapter = "/org/bluez/hci0"
    let device = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"
    let service = BlueZConfiguration.defaultServiceUUID
    let message = BlueZConfiguration.defaultMessageUUID

    private func interfaces(_ map: [String: [String: DBusValue]]) -> DBusValue {
        .dictionary(key: "s", value: "a{sv}", map.keys.sorted().map {
            DBusDictEntry(key: .string($0), value: .propertyMap(map[$0]!))
        })
    }

    private func tree() -> DBusValue {
        let objects: [(String, [String: [String: DBusValue]])] = [
            (adapter, [BlueZ.adapter: ["Powered": .boolean(true), "Address": .string("00:AA:01:00:00:23")]]),
            (device, [BlueZ.device: ["Address": .string("aa:bb:cc:dd:ee:ff"), "Connected": .boolean(true),
                                     "ServicesResolved": .boolean(true), "RSSI": .int16(-40),
                                     "UUIDs": .stringArray([service.uppercased()])]]),
            (device + "/service0001", [BlueZ.service: ["UUID": .string("00001801-0000-1000-8000-00805f9b34fb")]]),
            (device + "/service0001/char0002", [BlueZ.characteristic: [
                "UUID": .string(message), "Service": .objectPath(device + "/service0001")]]),
            (device + "/service0010", [BlueZ.service: ["UUID": .string(service)]]),
            (device + "/service0010/char0011", [BlueZ.characteristic: [
                "UUID": .string(message), "Service": .objectPath(device + "/service0010"), "MTU": .uint16(185)]]),
        ]
        return .dictionary(key: "o", value: "a{sa{sv}}", objects.map {
            DBusDictEntry(key: .objectPath($0.0), value: interfaces($0.1))
        })
    }

    @Test func loadsAdapterDeviceAndCharacteristic() throws {
        var cache = BlueZObjectCache()
        try cache.load(managedObjects: tree())
        #expect(cache.isPowered(adapter))
        let found = try #require(cache.device(device))
        #expect(found.address == "AA:BB:CC:DD:EE:FF")
        #expect(found.connected && found.servicesResolved)
        #expect(found.uuids == [service])
        #expect(found.rssi == -40)
        #expect(cache.devices(under: adapter).map(\.path) == [device])
        let characteristic = try #require(cache.characteristic(of: device, serviceUUID: service, uuid: message))
        #expect(characteristic.path == device + "/service0010/char0011", "the same UUID in another service is skipped")
        #expect(characteristic.mtu == 185)
    }

    @Test func signalsUpdateTheMirror() throws {
        var cache = BlueZObjectCache()
        try cache.load(managedObjects: tree())
        cache.propertiesChanged(path: device, interface: BlueZ.device, changed: ["Connected": .boolean(false)],
                                invalidated: ["RSSI"])
        #expect(cache.device(device)?.connected == false)
        #expect(cache.device(device)?.rssi == nil)
        cache.propertiesChanged(path: "/unknown", interface: BlueZ.device, changed: ["Connected": .boolean(true)],
                                invalidated: [])
        #expect(cache.objects["/unknown"] == nil)
        cache.interfacesRemoved(path: device, interfaces: [BlueZ.device])
        #expect(cache.device(device) == nil)
        try cache.interfacesAdded(path: device, interfaces: interfaces([BlueZ.device: ["Address": .string("AA:BB:CC:DD:EE:FF")]]))
        #expect(cache.device(device)?.connected == false)
        cache.removeSubtree(adapter)
        #expect(cache.objects.isEmpty)
    }

    @Test func badAddressMeansNoDevice() throws {
        var cache = BlueZObjectCache()
        try cache.interfacesAdded(path: device, interfaces: interfaces([BlueZ.device: ["Address": .string("nonsense")]]))
        #expect(cache.device(device) == nil)
        #expect(throws: DBusError.self) { try cache.interfacesAdded(path: device, interfaces: .string("x")) }
    }

    @Test(arguments: [
        ("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF/service0010/char0011", "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"),
        ("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF", "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"),
        ("/org/bluez/hci0", nil),
    ])
    func devicePathOfGATTObjects(_ path: String, _ expected: String?) {
        #expect(BlueZObjectCache.devicePath(containing: path) == expected)
    }
}
