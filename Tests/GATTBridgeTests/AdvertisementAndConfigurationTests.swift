import Testing
@testable import GATTBridge

/// The advertisement must fit 31 bytes; configurations that would not fit are refused.
@Suite struct AdvertisementAndConfigurationTests {
    @Test func defaultAdvertisementIsExactly31Bytes() {
        let budget = AdvertisementBudget(serviceUUIDs: [BlueZConfiguration.defaultServiceUUID], localName: "6709210f")
        #expect(budget.flagsBytes == 3)
        #expect(budget.uuidBytes == 18)
        #expect(budget.nameBytes == 10)
        #expect(budget.totalBytes == 31)
        #expect(budget.fits)
    }

    @Test(arguments: [("", 21, true), ("abc", 26, true), ("12345678", 31, true), ("123456789", 32, false),
                      ("RelayChat-6709210f", 41, false)])
    func nameLengthDecidesTheFit(_ name: String, _ total: Int, _ fits: Bool) {
        let budget = AdvertisementBudget(serviceUUIDs: [BlueZConfiguration.defaultServiceUUID], localName: name)
        #expect(budget.totalBytes == total)
        #expect(budget.fits == fits)
    }

    @Test func sixteenBitUUIDsAreCheaper() {
        let budget = AdvertisementBudget(serviceUUIDs: ["180d", "180f"], localName: "x")
        #expect(budget.uuidBytes == 2 + 4)
        #expect(budget.totalBytes == 3 + 6 + 3)
    }

    @Test func configurationThatWouldNotFitIsRefused() {
        let config = BlueZConfiguration(localName: "123456789")
        #expect(throws: BlueZConfigurationError.advertisementTooLarge(bytes: 32)) { try config.validated() }
    }

    @Test(arguments: [
        (BlueZConfiguration(adapter: "wlan0", localName: "abcd1234"), BlueZConfigurationError.badAdapter("wlan0")),
        (BlueZConfiguration(localName: "abcd1234", serviceUUID: "180d"),
         .badUUID(field: "serviceUUID", value: "180d")),
        (BlueZConfiguration(localName: "abcd1234", profileCharacteristicUUID: BlueZConfiguration.defaultMessageUUID),
         .duplicateUUIDs),
        (BlueZConfiguration(localName: ""), .badLocalName("")),
        (BlueZConfiguration(localName: "abcd1234", denyAddresses: ["zz:zz"]), .badAddress("zz:zz")),
        (BlueZConfiguration(localName: "abcd1234", maxConnections: 0), .badLimit(field: "maxConnections", value: 0)),
        (BlueZConfiguration(localName: "abcd1234", connectTimeout: 0.1), .badTimeout),
    ])
    func invalidConfigurationsAreRefused(_ config: BlueZConfiguration, _ expected: BlueZConfigurationError) {
        #expect(throws: expected) { try config.validated() }
    }

    @Test func validationLowercasesUUIDs() throws {
        let config = try BlueZConfiguration(localName: "abcd1234",
                                            serviceUUID: "8F2C0001-5E1A-4C7B-9D3E-6D657368EE01").validated()
        #expect(config.serviceUUID == BlueZConfiguration.defaultServiceUUID)
    }

    @Test func advertisementObjectCarriesServiceAndName() throws {
        let gatt = try GATTApplication(configuration: BlueZConfiguration(adapter: "hci2", localName: "abcd1234"))
        #expect(gatt.advertisementPath == "/org/meshnode/hci2/adv")
        #expect(gatt.advertisement.property(path: gatt.advertisementPath, interface: BlueZ.advertisement,
                                            name: "LocalName") == .string("abcd1234"))
    }
}

/// The address allow/deny filter.
@Suite struct AddressFilterTests {
    @Test func denyWinsAndAllowRestricts() {
        let open = AddressFilter(allow: [], deny: ["aa:bb:cc:dd:ee:ff"])
        #expect(!open.permits("AA:BB:CC:DD:EE:FF"))
        #expect(open.permits("00:11:22:33:44:55"))
        let closed = AddressFilter(allow: ["00:11:22:33:44:55", "AA:BB:CC:DD:EE:FF"], deny: ["AA:BB:CC:DD:EE:FF"])
        #expect(closed.permits("00:11:22:33:44:55"))
        #expect(!closed.permits("AA:BB:CC:DD:EE:FF"))
        #expect(!closed.permits("00:11:22:33:44:56"))
        #expect(!open.permits("not an address"))
    }

    @Test(arguments: [("aa:bb:cc:dd:ee:ff", "AA:BB:CC:DD:EE:FF"), ("AA:BB:CC:DD:EE", nil), ("AA:BB:CC:DD:EE:FG", nil),
                      ("AAA:BB:CC:DD:EE:F", nil)])
    func normalisation(_ text: String, _ expected: String?) {
        #expect(AddressFilter.normalize(text) == expected)
    }

    @Test func addressFromDevicePath() {
        #expect(AddressFilter.address(fromDevicePath: "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_0F") == "AA:BB:CC:DD:EE:0F")
        #expect(AddressFilter.address(fromDevicePath: "/org/bluez/hci0") == nil)
    }
}
