import Foundation
import Testing
import MeshConfig
@testable import MeshService

/// `[bluez] rotate_address = auto` follows `Privacy` in bluetoothd's main.conf (docs/BLUEZ.md, "Addresses").
@Suite struct BluetoothdPrivacyTests {
    @Test(arguments: [
        ("[General]\nPrivacy = device\n", true),
        ("[General]\nPrivacy = network\n", true),
        ("[General]\nPrivacy = off\n", false),
        ("[General]\n#Privacy = device\n", false),
        ("[LE]\nPrivacy = device\n", false),
        ("", false),
    ])
    func mainConf(_ text: String, _ on: Bool) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("main-\(UUID().uuidString).conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(BluetoothdPrivacy.configured(path: path) == on)
    }

    @Test func aMissingFileMeansOff() {
        #expect(BluetoothdPrivacy.configured(path: "/nonexistent/main.conf") == false)
    }

    @Test func autoFollowsIt() {
        var settings = MeshConfig.BlueZSettings()
        #expect(settings.rotateAddress == .auto)
        #expect(settings.configuration(localName: "abcd1234", privacyConfigured: true).rotateAddress)
        #expect(!settings.configuration(localName: "abcd1234", privacyConfigured: false).rotateAddress)
        settings.rotateAddress = .off
        #expect(!settings.configuration(localName: "abcd1234", privacyConfigured: true).rotateAddress)
        settings.rotateAddress = .on
        #expect(settings.configuration(localName: "abcd1234", privacyConfigured: false).rotateAddress)
    }
}
