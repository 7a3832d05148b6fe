/// Whether the adapter uses resolvable private addresses: the kernel's setting, or bluetoothd's
/// configuration when the kernel could not be asked.
public enum PrivacyFact: Equatable, Sendable {
    /// Not looked at (no adapter to ask about).
    case unknown
    /// The kernel's current setting (management socket, Read Controller Information, current-settings bit 13).
    case kernel(on: Bool)
    /// The kernel could not be asked (`reason`); `Privacy` under `[General]` in bluetoothd's
    /// main.conf, nil when not set; `readError` when that file could not be read either.
    case configured(value: String?, reason: String, readError: String? = nil)

    /// The `Privacy` values bluetoothd 5.66 accepts that turn privacy on; any other value leaves it off.
    public static let onValues: Set<String> = ["network", "on", "device", "limited-network", "limited-device"]

    /// `Privacy` under `[General]` in the text of bluetoothd's main.conf; nil when not set.
    /// Comments (`#`, `;`) and other sections are ignored; the last setting wins, as in GKeyFile.
    public static func mainConfPrivacy(_ text: Substring) -> String? {
        var section = ""
        var value: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard section == "General", let equals = line.firstIndex(of: "=") else { continue }
            if line[..<equals].trimmingSpaces == "Privacy" {
                value = String(line[line.index(after: equals)...].trimmingSpaces)
            }
        }
        return value
    }
}

/// The kernel's answer to Read Controller Information (opcode 0x0004), parsed from one management event.
public enum ControllerInfoReply: Equatable, Sendable {
    /// Not the answer to it (another event or another controller): keep reading.
    case other
    /// The command failed with this management status.
    case failed(status: UInt8)
    /// The controller's current settings.
    case settings(UInt32)

    /// Current-settings bit 13: privacy.
    public static let privacyBit: UInt32 = 1 << 13

    /// Parses one event read from the management socket, for controller `index`.
    public init(event bytes: [UInt8], index: UInt16) {
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        // Header: event code, controller index, parameter length (each 16-bit little-endian).
        guard bytes.count >= 9, u16(2) == index, u16(6) == 0x0004 else { self = .other; return }
        let length = Int(u16(4))
        guard bytes.count >= 6 + length else { self = .other; return }
        switch u16(0) {
        case 0x0002:   // Command Status: only failures come this way
            self = .failed(status: bytes[8])
        case 0x0001 where bytes[8] != 0:
            self = .failed(status: bytes[8])
        case 0x0001:
            // Return parameters after opcode and status: address (6), version (1), manufacturer (2),
            // supported settings (4), current settings (4), ...
            let at = 9 + 13
            guard bytes.count >= at + 4 else { self = .failed(status: 0xFF); return }
            self = .settings((0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) })
        default:
            self = .other
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let text = self
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start..<Swift.max(start, end)]
    }
}
