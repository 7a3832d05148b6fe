import Testing
@testable import DBusKit
@testable import GATTBridge

/// Parsing what bluetoothd asks of our objects.
@Suite struct GATTRequestTests {
    let gatt: GATTApplication
    let device = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"

    init() throws {
        gatt = try GATTApplication(configuration: BlueZConfiguration(localName: "abcd1234").validated())
    }

    @Test func writeCarriesDeviceAndMTU() throws {
        let options = DBusValue.propertyMap(["device": .objectPath(device), "mtu": .uint16(185), "link": .string("LE")])
        let request = try gatt.request(path: gatt.messagePath, interface: BlueZ.characteristic, member: "WriteValue",
                                       arguments: DBusArguments([.bytes([1, 2, 3]), options]))?.get()
        #expect(request == .write([1, 2, 3], GATTOptions(device: device, mtu: 185, offset: 0)))
    }

    @Test func malformedWritesAreTypedErrors() {
        let wrongMTU = DBusValue.propertyMap(["mtu": .string("big")])
        let result = gatt.request(path: gatt.messagePath, interface: nil, member: "WriteValue",
                                  arguments: DBusArguments([.bytes([1]), wrongMTU]))
        #expect(result.map { if case .failure(.typeMismatch) = $0 { true } else { false } } == true)
        let missing = gatt.request(path: gatt.messagePath, interface: nil, member: "WriteValue",
                                   arguments: DBusArguments([.bytes([1])]))
        #expect(missing.map { if case .failure(.malformed) = $0 { true } else { false } } == true)
        let huge = gatt.request(path: gatt.messagePath, interface: nil, member: "WriteValue",
                                arguments: DBusArguments([.bytes(Array(repeating: 0, count: 513)), .propertyMap([:])]))
        #expect(huge.map { if case .failure(.limitExceeded) = $0 { true } else { false } } == true)
    }

    @Test func otherRequests() throws {
        #expect(try gatt.request(path: gatt.messagePath, interface: nil, member: "StartNotify",
                                 arguments: DBusArguments([]))?.get() == .startNotify)
        #expect(try gatt.request(path: gatt.profilePath, interface: BlueZ.characteristic, member: "ReadValue",
                                 arguments: DBusArguments([.propertyMap(["offset": .uint16(4)])]))?.get()
                == .readProfile(GATTOptions(device: nil, mtu: nil, offset: 4)))
        #expect(try gatt.request(path: gatt.profilePath, interface: nil, member: "WriteValue",
                                 arguments: DBusArguments([]))?.get() == .unsupported("WriteValue"))
        #expect(try gatt.request(path: gatt.advertisementPath, interface: BlueZ.advertisement, member: "Release",
                                 arguments: DBusArguments([]))?.get() == .releaseAdvertisement)
        #expect(gatt.request(path: gatt.servicePath, interface: nil, member: "ReadValue", arguments: DBusArguments([])) == nil)
        #expect(gatt.request(path: gatt.messagePath, interface: "org.other", member: "WriteValue",
                             arguments: DBusArguments([])) == nil)
    }
}
