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
    /// The local name advertised at start; ``BlueZTransport/setLocalName(_:)`` changes it (meshnoded:
    /// the name of the epoch, docs/PROTOCOL.md D13).
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
    /// Client slot characteristics exported beside the message characteristic, one per client without a
    /// GATT server served at once (0...16; 0 exports none). docs/BLUEZ.md, "Client slots".
    public var clientSlots: Int
    /// The UUID of slot 0; slot k's UUID adds k to its first group (``ClientSlots/uuid(base:slot:)``).
    public var slotBaseUUID: String
    /// The ATT write our own frames go out as (the `type` option of `WriteValue`); docs/BLUEZ.md,
    /// "Why write-without-response", says which and why.
    public var writeType: GATTWriteType = .request
    /// With ``writeType`` `.command`: frames of a link that may be unconfirmed by the peer's stack at
    /// once (``WritePacer``; 1...64).
    public var writeWindow = WritePacer.defaultWindow
    /// Whether to power the adapter off and on whenever its address would otherwise carry a second
    /// advertised name (``AddressRotation``; docs/BLUEZ.md, "Addresses"). Useful only with kernel
    /// privacy on (bluetoothd's `Privacy`); every link of the adapter drops at each cycle.
    public var rotateAddress = false
    /// The shortest time between two such power cycles, in seconds (``AddressRotation/minimumInterval``).
    public var addressRotationInterval = AddressRotation.defaultMinimumInterval
    /// The bus to use instead of the system bus (a D-Bus address such as `unix:path=/run/x`), for
    /// tests on a private dbus-daemon; nil, the default, is the system bus.
    public var busAddress: String?

    /// The default service UUID (this project's own; see docs/BLUEZ.md).
    public static let defaultServiceUUID = MeshGATTIdentity.service
    /// The default message characteristic UUID.
    public static let defaultMessageUUID = MeshGATTIdentity.messageCharacteristic
    /// The default profile characteristic UUID.
    public static let defaultProfileUUID = MeshGATTIdentity.profileCharacteristic
    /// The default UUID of client slot 0 (slot k: `8f2c0100` + k in the first group).
    public static let defaultSlotBaseUUID = MeshGATTIdentity.clientSlotBase

    /// The UUIDs of the client slot characteristics we export, slot 0 first.
    public var slotUUIDs: [String] { (0..<clientSlots).compactMap { ClientSlots.uuid(base: slotBaseUUID, slot: $0) } }

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
                reconnect: ReconnectPolicy = ReconnectPolicy(), gattServer: Bool = true,
                clientSlots: Int = ClientSlots.defaultCount,
                slotBaseUUID: String = BlueZConfiguration.defaultSlotBaseUUID) {
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
        self.clientSlots = clientSlots
        self.slotBaseUUID = slotBaseUUID
    }

    /// A copy with UUIDs lowercased, or the first problem found.
    public func validated() throws(BlueZConfigurationError) -> BlueZConfiguration {
        var copy = self
        guard adapter.utf8.count <= 16, adapter.hasPrefix("hci"), UInt8(adapter.dropFirst(3)) != nil else {
            throw .badAdapter(adapter)
        }
        for (field, uuid) in [("serviceUUID", serviceUUID), ("messageCharacteristicUUID", messageCharacteristicUUID),
                              ("profileCharacteristicUUID", profileCharacteristicUUID), ("slotBaseUUID", slotBaseUUID)] {
            guard BlueZUUID.isFull128(uuid) else { throw .badUUID(field: field, value: uuid) }
        }
        copy.serviceUUID = serviceUUID.lowercased()
        copy.messageCharacteristicUUID = messageCharacteristicUUID.lowercased()
        copy.profileCharacteristicUUID = profileCharacteristicUUID.lowercased()
        copy.slotBaseUUID = slotBaseUUID.lowercased()
        guard (0...ClientSlots.maxCount).contains(clientSlots) else { throw .badLimit(field: "clientSlots", value: clientSlots) }
        let slots = copy.slotUUIDs
        guard slots.count == clientSlots else { throw .badUUID(field: "slotBaseUUID", value: slotBaseUUID) }
        let all = [copy.serviceUUID, copy.messageCharacteristicUUID, copy.profileCharacteristicUUID] + slots
        guard Set(all).count == all.count else { throw .duplicateUUIDs }
        try copy.checkLocalName(localName)
        for address in allowAddresses.union(denyAddresses) where AddressFilter.normalize(address) == nil {
            throw .badAddress(address)
        }
        guard (1...64).contains(maxConnections) else { throw .badLimit(field: "maxConnections", value: maxConnections) }
        guard (1...4096).contains(sendQueueLimit) else { throw .badLimit(field: "sendQueueLimit", value: sendQueueLimit) }
        guard (1...64).contains(writeWindow) else { throw .badLimit(field: "writeWindow", value: writeWindow) }
        guard connectTimeout >= 1, connectTimeout <= 300, callTimeout >= 1, callTimeout <= 300 else {
            throw .badTimeout
        }
        return copy
    }
}

extension BlueZConfiguration {
    /// Throws unless `name` is printable ASCII and fits the advertisement beside the service UUID.
    public func checkLocalName(_ name: String) throws(BlueZConfigurationError) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f }) else {
            throw .badLocalName(name)
        }
        let budget = AdvertisementBudget(serviceUUIDs: [serviceUUID], localName: name)
        guard budget.fits else { throw .advertisementTooLarge(bytes: budget.totalBytes) }
    }
}

/// Why a ``BlueZConfiguration`` was rejected.
public enum BlueZConfigurationError: Error, Equatable, Sendable {
    /// The adapter is not named `hciN`.
    case badAdapter(String)
    /// A UUID is not a full 128-bit UUID string.
    case badUUID(field: String, value: String)
    /// Two of the UUIDs (service, characteristics, client slots) are equal.
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

/// The ATT write a frame to a peer's message characteristic goes out as.
public enum GATTWriteType: String, Equatable, Sendable, CaseIterable {
    /// ATT Write Request: the peer's stack answers each one before the next goes out.
    case request
    /// ATT Write Command: no answer; bluetoothd returns once it has queued the write.
    case command
}
