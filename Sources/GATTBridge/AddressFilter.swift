/// The allow/deny lists by Bluetooth address (node-ID lists are the engine's business).
public struct AddressFilter: Equatable, Sendable {
    /// Normalised allowed addresses; empty means everyone not denied.
    public let allow: Set<String>
    /// Normalised denied addresses; deny wins.
    public let deny: Set<String>

    /// Creates a filter; entries that are not addresses are dropped (configuration validation reports them).
    public init(allow: Set<String>, deny: Set<String>) {
        self.allow = Set(allow.compactMap(Self.normalize))
        self.deny = Set(deny.compactMap(Self.normalize))
    }

    /// Whether a device with this address may link with us.
    public func permits(_ address: String) -> Bool {
        guard let normal = Self.normalize(address) else { return false }
        if deny.contains(normal) { return false }
        return allow.isEmpty || allow.contains(normal)
    }

    /// `AA:BB:CC:DD:EE:FF` in upper case, or nil when `text` is not six hex pairs.
    public static func normalize(_ text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return parts.joined(separator: ":").uppercased()
    }

    /// The address BlueZ encodes in a device path (`.../dev_AA_BB_CC_DD_EE_FF`), if any.
    public static func address(fromDevicePath path: String) -> String? {
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        return normalize(last.dropFirst(4).replacingOccurrences(of: "_", with: ":"))
    }
}

private extension Substring {
    func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
