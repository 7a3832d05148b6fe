import Glibc
import MeshConfig
import MeshProtocol
import MQTTBridge

extension MQTTSettings {
    /// The longest password file read.
    static let maxPasswordBytes = 4096

    /// The bridge configuration for this gateway (`nodeID` names its MQTT client and session), with
    /// the password read from its file or systemd credential (`environment`'s `CREDENTIALS_DIRECTORY`).
    func bridgeConfiguration(
        nodeID: NodeID, environment: [String: String]
    ) throws(MQTTStartupError) -> MQTTBridgeConfiguration {
        let layout: MQTTTopicLayout
        do throws(MQTTTopicError) {
            layout = try MQTTTopicLayout(prefix: prefix, meshName: mesh)
        } catch {
            throw .topic(error)
        }
        var password: String?
        if let passwordFile { password = try Self.readPassword(passwordFile, environment: environment) }
        return MQTTBridgeConfiguration(
            host: host, port: Int(port), layout: layout, clientID: "meshnoded-\(nodeID.hex)", broadcastQoS: qos,
            sessionExpirySeconds: UInt32(sessionExpiry / .seconds(1)), queueCapacity: queueSize,
            downlink: DownlinkLimits(
                gatewayMessagesPerSecond: Double(gatewayMessagesPerSecond), gatewayBurst: Double(gatewayBurst),
                totalMessagesPerSecond: Double(totalMessagesPerSecond), totalBurst: Double(totalBurst)),
            credentials: MQTTCredentials(caFile: caFile, certFile: certFile, keyFile: keyFile, username: username, password: password))
    }

    /// The password's first line: from `file`, or from `$CREDENTIALS_DIRECTORY/file` for a credential's name.
    static func readPassword(_ file: String, environment: [String: String]) throws(MQTTStartupError) -> String {
        let path: String
        if file.hasPrefix("/") {
            path = file
        } else if let directory = environment["CREDENTIALS_DIRECTORY"] {
            path = directory + "/" + file
        } else {
            throw .noCredentialsDirectory(file)
        }
        guard let handle = fopen(path, "r") else { throw .passwordFile(path, errno: errno) }
        defer { fclose(handle) }
        var buffer = [UInt8](repeating: 0, count: maxPasswordBytes + 1)
        let count = fread(&buffer, 1, buffer.count, handle)
        guard count <= maxPasswordBytes else { throw .passwordTooLong(path) }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        return String(text.prefix { $0 != "\n" && $0 != "\r" })
    }
}
