import Glibc
import MQTTBridge

/// Why the MQTT bridge could not be set up at start-up. Never carries the password.
public enum MQTTStartupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The prefix or mesh name is not a valid topic level.
    case topic(MQTTTopicError)
    /// `password_file` names a credential but systemd set no `$CREDENTIALS_DIRECTORY`.
    case noCredentialsDirectory(String)
    /// The password file could not be opened.
    case passwordFile(String, errno: Int32)
    /// The password file is longer than 4096 bytes.
    case passwordTooLong(String)
    /// libmosquitto refused the client or its TLS or login settings.
    case client(MosquittoError)

    /// One sentence for the journal.
    public var description: String {
        switch self {
        case .topic(let error): "mqtt: bad topic layout: \(error)"
        case .noCredentialsDirectory(let name): "mqtt: password_file \(name) names a credential, but $CREDENTIALS_DIRECTORY is not set"
        case .passwordFile(let path, let code): "mqtt: cannot read password file \(path): \(String(cString: strerror(code)))"
        case .passwordTooLong(let path): "mqtt: password file \(path) is longer than 4096 bytes"
        case .client(let error): "mqtt: \(error)"
        }
    }
}
