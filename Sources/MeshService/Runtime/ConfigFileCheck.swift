import Glibc
import MeshConfig
import MeshCrypto

/// The checks `--check-config` and start-up share beyond the configuration text: every file a
/// setting names is opened and parsed (the MQTT bridge's CA, client certificate and key, and its
/// password file), so a bad one is one `EX_CONFIG` line naming the file, before anything starts.
public enum ConfigFileCheck {
    /// Throws the first problem, located at the named file.
    public static func check(_ config: DaemonSettings, environment: [String: String]) throws(ConfigError) {
        let mqtt = config.mqtt
        guard mqtt.enabled else { return }
        func fail(_ path: String, _ key: String, _ reason: String) -> ConfigError {
            ConfigError(file: path, line: nil, problem: .namedFile(section: "mqtt", key: key, reason: reason))
        }
        if (mqtt.certFile == nil) != (mqtt.keyFile == nil) {
            throw ConfigError(file: "[mqtt]", line: nil, problem: .inconsistent("cert_file and key_file go together: set both or neither"))
        }
        if (mqtt.certFile != nil), mqtt.caFile == nil {
            throw ConfigError(file: "[mqtt]", line: nil, problem: .inconsistent("cert_file needs ca_file (a client certificate is only used over TLS)"))
        }
        if let path = mqtt.caFile, let reason = PEMFileCheck.problem(path, holds: .certificates) { throw fail(path, "ca_file", reason) }
        if let path = mqtt.certFile, let reason = PEMFileCheck.problem(path, holds: .certificates) { throw fail(path, "cert_file", reason) }
        if let path = mqtt.keyFile, let reason = PEMFileCheck.problem(path, holds: .privateKey) { throw fail(path, "key_file", reason) }
        if let certificate = mqtt.certFile, let key = mqtt.keyFile,
           let reason = PEMFileCheck.pairProblem(certificate: certificate, key: key) {
            throw fail(key, "key_file", reason)
        }
        if let file = mqtt.passwordFile, file.hasPrefix("/") || environment["CREDENTIALS_DIRECTORY"] != nil {
            do throws(MQTTStartupError) {
                _ = try MQTTSettings.readPassword(file, environment: environment)
            } catch {
                switch error {
                case .passwordFile(let path, let code): throw fail(path, "password_file", "cannot open: \(String(cString: strerror(code)))")
                case .passwordTooLong(let path): throw fail(path, "password_file", "longer than \(MQTTSettings.maxPasswordBytes) bytes")
                default: throw fail(file, "password_file", error.description)
                }
            }
        }
    }
}
