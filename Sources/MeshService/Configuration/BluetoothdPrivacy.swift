import Doctor
import Glibc

/// Whether bluetoothd turns the kernel's address privacy on, as far as the daemon can tell: `Privacy`
/// under `[General]` in its main.conf. The unit cannot ask the kernel (no `AF_BLUETOOTH` sockets);
/// `relayctl doctor` can, and says when the two disagree.
enum BluetoothdPrivacy {
    /// bluetoothd's configuration file.
    static let mainConf = "/etc/bluetooth/main.conf"
    /// The most of main.conf read.
    static let maxBytes = 64 << 10

    /// Whether `path` sets `Privacy` to a value that turns privacy on; false when it cannot be read.
    static func configured(path: String = mainConf) -> Bool {
        guard let file = fopen(path, "re") else { return false }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: maxBytes)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard let value = PrivacyFact.mainConfPrivacy(Substring(String(decoding: bytes[..<count], as: UTF8.self))) else {
            return false
        }
        return PrivacyFact.onValues.contains(value)
    }
}
