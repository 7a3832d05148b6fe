/// One LAN discovery announcement (docs/PROTOCOL.md, "LAN discovery"): what a BLE advertisement
/// carries on air (the mesh service UUID and the node's short ID) and the UDP port to dial.
///
/// 23 bytes: version (1), service UUID (16), short ID (4), port (2, big-endian, not 0).
public struct LANAnnouncement: Equatable, Hashable, Sendable {
    /// The only version defined.
    public static let version: UInt8 = 1
    /// The exact length of an announcement.
    public static let length = 23

    /// The mesh GATT service UUID, 16 bytes in the order its text form writes them.
    public var serviceUUID: [UInt8]
    /// The first 4 bytes of the announcer's node ID (its 8-hex-digit short ID, the BLE local name).
    public var instanceTag: UInt32
    /// The UDP port the announcer's LAN transport listens on.
    public var port: UInt16

    /// Creates an announcement; `serviceUUID` must be 16 bytes.
    public init(serviceUUID: [UInt8], instanceTag: UInt32, port: UInt16) {
        precondition(serviceUUID.count == 16, "a service UUID is 16 bytes")
        self.serviceUUID = serviceUUID
        self.instanceTag = instanceTag
        self.port = port
    }

    /// Parses an announcement: exactly 23 bytes, version 1, port not 0.
    public init(decoding bytes: [UInt8]) throws(LANAnnouncementError) {
        guard bytes.count == Self.length else { throw .length(bytes.count) }
        guard bytes[0] == Self.version else { throw .version(bytes[0]) }
        let port = UInt16(bytes[21]) << 8 | UInt16(bytes[22])
        guard port != 0 else { throw .portZero }
        serviceUUID = Array(bytes[1...16])
        instanceTag = bytes[17...20].reduce(0) { $0 << 8 | UInt32($1) }
        self.port = port
    }

    /// The 23 bytes on the wire.
    public func encoded() -> [UInt8] {
        [Self.version] + serviceUUID + [UInt8(instanceTag >> 24), UInt8(truncatingIfNeeded: instanceTag >> 16),
                                        UInt8(truncatingIfNeeded: instanceTag >> 8), UInt8(truncatingIfNeeded: instanceTag),
                                        UInt8(port >> 8), UInt8(truncatingIfNeeded: port)]
    }

    /// The 16 bytes of a UUID in text form (`8f2c0001-5e1a-…`); nil unless 32 hex digits in 8-4-4-4-12 groups.
    public static func uuidBytes(_ text: String) -> [UInt8]? {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
        let digits = Array(groups.joined().utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Why bytes are not an announcement.
public enum LANAnnouncementError: Error, Equatable, Sendable {
    /// Not exactly 23 bytes.
    case length(Int)
    /// The version byte is not 1.
    case version(UInt8)
    /// The port is 0.
    case portZero
}
