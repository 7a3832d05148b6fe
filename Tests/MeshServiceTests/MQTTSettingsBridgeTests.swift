import Foundation
import MeshConfig
import MeshProtocol
import MQTTBridge
import Testing
@testable import MeshService

@Suite struct MQTTSettingsBridgeTests {
    static let node = NodeID(hex: "00112233445566778899aabbccddeeff")!

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "mqtt-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func readsThePasswordFromASystemdCredentialByName() throws {
        let directory = try Self.temporaryDirectory()
        try "pa55 word\nsecond line\n".write(toFile: directory + "/mqtt-password", atomically: true, encoding: .utf8)
        var settings = MQTTSettings()
        settings.passwordFile = "mqtt-password"
        settings.username = "gw"
        let configuration = try settings.bridgeConfiguration(nodeID: Self.node, environment: ["CREDENTIALS_DIRECTORY": directory])
        #expect(configuration.credentials.password == "pa55 word")
        #expect(configuration.clientID == "meshnoded-00112233445566778899aabbccddeeff")
        #expect(!configuration.credentials.description.contains("pa55"))
    }

    @Test func aCredentialNameWithoutCredentialsDirectoryIsRefused() {
        var settings = MQTTSettings()
        settings.passwordFile = "mqtt-password"
        #expect(throws: MQTTStartupError.noCredentialsDirectory("mqtt-password")) {
            try settings.bridgeConfiguration(nodeID: Self.node, environment: [:])
        }
    }

    @Test func aPasswordFileLongerThanTheBoundIsRefused() throws {
        let path = try Self.temporaryDirectory() + "/long"
        try String(repeating: "x", count: 5000).write(toFile: path, atomically: true, encoding: .utf8)
        var settings = MQTTSettings()
        settings.passwordFile = path
        #expect(throws: MQTTStartupError.passwordTooLong(path)) {
            try settings.bridgeConfiguration(nodeID: Self.node, environment: [:])
        }
    }

    @Test func theSettingsBecomeTheBridgeAndEngineConfiguration() throws {
        var config = DaemonSettings()
        config.mqtt.enabled = true
        config.mqtt.mesh = "hall-2"
        config.mqtt.downlinkHops = 2
        config.mqtt.gatewayBurst = 7
        let bridge = try config.mqtt.bridgeConfiguration(nodeID: Self.node, environment: [:])
        #expect(bridge.layout.root == "relaychat/v1/hall-2")
        #expect(bridge.downlink.gatewayBurst == 7)
        #expect(bridge.credentials.password == nil)
        #expect(config.engineConfiguration.bridged)
        #expect(config.engineConfiguration.bridgeDownlinkHops == 2)
        #expect(!DaemonSettings().engineConfiguration.bridged)
    }
}
