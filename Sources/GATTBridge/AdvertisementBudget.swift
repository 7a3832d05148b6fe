/// The size of our legacy LE advertising payload, which must fit 31 bytes.
///
/// Each AD structure costs one length byte, one type byte and its data:
/// Flags 1+1+1 = 3, a complete list of 128-bit service UUIDs 1+1+16n,
/// 16-bit UUIDs 1+1+2n, and the complete local name 1+1+len(UTF-8).
/// With one 128-bit UUID and an 8-character name: 3 + 18 + 10 = 31.
public struct AdvertisementBudget: Equatable, Sendable {
    /// The legacy advertising payload limit.
    public static let limit = 31
    /// The service UUIDs to advertise (16- or 128-bit strings).
    public var serviceUUIDs: [String]
    /// The local name (our short ID).
    public var localName: String

    /// Creates a budget for one advertisement.
    public init(serviceUUIDs: [String], localName: String) {
        self.serviceUUIDs = serviceUUIDs
        self.localName = localName
    }

    /// Bytes used by the Flags structure (BlueZ always adds it for a peripheral advertisement).
    public var flagsBytes: Int { 3 }

    /// Bytes used by the service UUID lists.
    public var uuidBytes: Int {
        let long = serviceUUIDs.filter { $0.count == 36 }.count
        let short = serviceUUIDs.count - long
        return (long > 0 ? 2 + 16 * long : 0) + (short > 0 ? 2 + 2 * short : 0)
    }

    /// Bytes used by the local name structure.
    public var nameBytes: Int { localName.isEmpty ? 0 : 2 + localName.utf8.count }

    /// The whole payload.
    public var totalBytes: Int { flagsBytes + uuidBytes + nameBytes }

    /// Whether the payload fits in one legacy advertisement.
    public var fits: Bool { totalBytes <= Self.limit }
}
