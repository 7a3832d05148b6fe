import MeshLink
/// Everything the BlueZ transport needs to know; validated by ``validated()``.
public struct BlueZConfiguration: Equatable, Sendable {
    /// The adapter to use, by its kernel name (`hci0`, `hci1`, ...).
    public var adapter: String
    /// The mesh service's 128-bit UUID (advertised, scanned for, and exported).
    public var serviceUUID: String
    /// The message characteristic peers write frames to and subscribe to.
    public var messageCharacteristicUUID: String
    /// The read-only profile characteristic.
    public var profileCharacteristicUUID: String
    /// The 8-character short ID advertised as the local name.
    public var localName: String
    /// When not empty, only these addresses may link with us (`AA:BB:CC:DD:EE:FF`, any case).
    public var allowAddresses: Set<String>
    /// Addresses that may never link with us; wins over ``allowAddresses``.
    public var denyAddresses: Set<String>
    /// Most links (both roles together, plus connections in progress) on the adapter.
    public var maxConnections: Int
    /// Seconds allowed for Device1.Connect and then again for service resolution.
    public var connectTimeout: Double
    /// Seconds allowed for any other BlueZ call.
    public var callTimeout: Double
    /// Frames queued per link before ``MeshTransport/send(_:on:)`` answers `.full`.
    public var sendQueueLimit: Int
    /// Whether to set the adapter's Powered property when it is off.
    public var powerOnAdapter: Bool
    /// Backoff for reconnecting to a device and for re-registering with BlueZ.
    public var reconnect: ReconnectPolicy
    /// Whether to export the GATT application and advertise (a node). False makes a client that only
    /// dials nodes, subscribes to their message characteristic and receives every frame as a notification.
    public var gattServer: Bool
    /// The bus to use instead of the system bus (a D-Bus address such as `unix:path=/run/x`), for
    /// tests on a private dbus-daemon; nil, the default, is the system bus.
    public var busAddress: String?

    /// The default service UUID (this project's own; see docs/BLUEZ.md).
    public static let defaultServiceUUID = MeshGATTIdentity.service
    /// The default message characteristic UUID.
    public static let defaultMessageUUID = MeshGATTIdentity.messageCharacteristic
    /// The default profile characteristic UUID.
    public static let defaultProfileUUID = MeshGATTIdentity.profileCharacteristic

    /// How long one central connection attempt may take in all: two connect timeouts and 2 s (32 s
    /// by default); also how long a connection may stay up without becoming a link.
    public var attemptBound: Double { connectTimeout * 2 + 2 }

    /// Creates a configuration with the project defaults.
    public init(adapter: String = "hci0", localName: String,
                serviceUUID: String = BlueZConfiguration.defaultServiceUUID,
                messageCharacteristicUUID: String = BlueZConfiguration.defaultMessageUUID,
                profileCharacteristicUUID: String = BlueZConfiguration.defaultProfileUUID,
                allowAddresses: Set<String> = [], denyAddresses: Set<String> = [],
                maxConnections: Int = 7, connectTimeout: Double = 15, callTimeout: Double = 10,
                sendQueueLimit: Int = 32, powerOnAdapter: Bool = true,
                reconnect: ReconnectPolicy = ReconnectPolicy(), gattServer: Bool = true) {
        self.adapter = adapter
        self.localName = localName
        self.serviceUUID = serviceUUID
        self.messageCharacteristicUUID = messageCharacteristicUUID
        self.profileCharacteristicUUID = profileCharacteristicUUID
        self.allowAddresses = allowAddresses
        self.denyAddresses = denyAddresses
        self.maxConnections = maxConnections
        self.connectTimeout = connectTimeout
        self.callTimeout = callTimeout
        self.sendQueueLimit = sendQueueLimit
        self.powerOnAdapter = powerOnAdapter
        self.reconnect = reconnect
        self.gattServer = gattServer
    }

    /// A copy with UUIDs lowercased, or the first problem found.
    public func validated() throws(BlueZConfigurationError) -> BlueZConfiguration {
        var copy = self
        guard adapter.utf8.count <= 16, adapter.hasPrefix("hci"), UInt8(adapter.dropFirst(3)) != nil else {
            throw .badAdapter(adapter)
        }
        for (field, uuid) in [("serviceUUID", serviceUUID), ("messageCharacteristicUUID", messageCharacteristicUUID),
                              ("profileCharacteristicUUID", profileCharacteristicUUID)] {
            guard BlueZUUID.isFull128(uuid) else { throw .badUUID(field: field, value: uuid) }
        }
        copy.serviceUUID = serviceUUID.lowercased()
        copy.messageCharacteristicUUID = messageCharacteristicUUID.lowercased()
        copy.profileCharacteristicUUID = profileCharacteristicUUID.lowercased()
        guard Set([copy.serviceUUID, copy.messageCharacteristicUUID, copy.profileCharacteristicUUID]).count == 3 else {
            throw .duplicateUUIDs
        }
        let budget = AdvertisementBudget(serviceUUIDs: [copy.serviceUUID], localName: localName)
        guard !localName.isEmpty, localName.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) else {
            throw .badLocalName(localName)
        }
        guard budget.fits else { throw .advertisementTooLarge(bytes: budget.totalBytes) }
        for address in allowAddresses.union(denyAddresses) where AddressFilter.normalize(address) == nil {
            throw .badAddress(address)
        }
        guard (1...64).contains(maxConnections) else { throw .badLimit(field: "maxConnections", value: maxConnections) }
        guard (1...4096).contains(sendQueueLimit) else { throw .badLimit(field: "sendQueueLimit", value: sendQueueLimit) }
        guard connectTimeout >= 1, connectTimeout <= 300, callTimeout >= 1, callTimeout <= 300 else {
            throw .badTimeout
        }
        return copy
    }
}

/// Why a ``BlueZConfiguration`` was rejected.
public enum BlueZConfigurationError: Error, Equatable, Sendable {
    /// The adapter is not named `hciN`.
    case badAdapter(String)
    /// A UUID is not a full 128-bit UUID string.
    case badUUID(field: String, value: String)
    /// Two of the three UUIDs are equal.
    case duplicateUUIDs
    /// The local name is empty or not printable ASCII.
    case badLocalName(String)
    /// The advertisement would exceed 31 bytes.
    case advertisementTooLarge(bytes: Int)
    /// An allow/deny entry is not a Bluetooth address.
    case badAddress(String)
    /// A count is outside its range.
    case badLimit(field: String, value: Int)
    /// A timeout is outside 1...300 seconds.
    case badTimeout
}

/// UUID string helpers.
public enum BlueZUUID {
    /// Whether `text` is `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with hex digits.
    public static func isFull128(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
