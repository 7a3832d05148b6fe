/// Why `mqttflood` could not flood.
enum MQTTFloodError: Error, CustomStringConvertible {
    /// A replay file could not be read or was empty.
    case unreadable(String)
    /// libmosquitto refused a step (what, its words).
    case mosquitto(String, String)
    /// No CONNACK within the time allowed.
    case notConnected(String)

    var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        case .mosquitto(let what, let words): "\(what): \(words)"
        case .notConnected(let broker): "no connection to \(broker)"
        }
    }
}
