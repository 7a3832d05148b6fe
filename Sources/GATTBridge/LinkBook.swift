import MeshLink

/// What the transport knows about one link: one LE connection to one device, in one role.
public struct LinkRecord: Equatable, Sendable {
    /// The engine-facing link ID.
    public var id: LinkID
    /// Our role: `.central` when we connected to the device, `.peripheral` when it connected to us.
    public var role: LinkRole
    /// The device's address (rotates on real phones; never an identity).
    public var address: String
    /// The BlueZ device object path (`/org/bluez/hci0/dev_...`).
    public var devicePath: String
    /// The ATT MTU of the connection.
    public var attMTU: Int
    /// The peer's GATT database: its message characteristic (frames are written there), none, or not known yet.
    public var peer: PeerDatabase
    /// The last signal strength seen.
    public var rssi: Int?
    /// Frames handed to BlueZ and not yet acknowledged.
    public var inFlight: Int
    /// The peer's client slot characteristic we subscribed to (we dialled a node without hosting a GATT
    /// server and claimed a slot); its notifications are this link's frames. nil: the message characteristic.
    public var remoteSlot: String?
    /// Whether the peer has written a frame to our characteristic on this link. A peer that writes to
    /// us never sends by notification, so its notifications are for another subscriber and are ignored.
    public var peerWrites = false

    /// The peer's message characteristic, when its database has one.
    public var remoteCharacteristic: String? {
        if case .messageCharacteristic(let path) = peer { path } else { nil }
    }

    /// The longest frame that fits one ATT write or notification: MTU minus the 3-byte ATT header,
    /// and never more than ``LinkBook/frameCap``.
    public var maxFrame: Int { min(max(0, attMTU - 3), LinkBook.frameCap) }

    /// The engine-facing description; `mtu` is the largest frame, see docs/BLUEZ.md.
    public var info: LinkInfo { LinkInfo(id: id, role: role, remoteAddress: address, mtu: maxFrame, rssi: rssi) }
}

/// How the transport will carry one frame, or why it will not.
public enum SendDecision: Equatable, Sendable {
    /// Write it to the peer's message characteristic (unicast on the shared LE link).
    case write(characteristic: String)
    /// Notify it through our own characteristic (reaches every subscriber; see ``SendRoute``).
    case notify
    /// Notify it through the client slot characteristic the peer holds (``ClientSlots``).
    case notifySlot(Int)
    /// Keep it until the link's route is known (the peer's database is not resolved, or nobody subscribed).
    case hold
    /// Refuse it with this outcome and reason.
    case refuse(SendOutcome, SendRefusal)
}

/// Why a frame was not taken.
public enum SendRefusal: String, Equatable, Sendable, CaseIterable {
    /// The link does not exist (any more).
    case noLink
    /// The frame is longer than MTU-3 and would be cut.
    case oversized
    /// The link's queue is at its limit.
    case queueFull
    /// We dialled a device that hosts no mesh service: there is nothing to write to.
    case noRoute
    /// The peer hosts no mesh service, and another such peer already holds the notification route.
    case notifyTaken
}

/// Links by ID and by device, with role and MTU bookkeeping. A pure value.
///
/// BlueZ keeps one LE connection per pair of addresses and both ends may act as GATT client,
/// so a device has at most one link here whichever side connected.
public struct LinkBook: Equatable, Sendable {
    /// Links by ID.
    public private(set) var links: [LinkID: LinkRecord] = [:]
    private var byDevice: [String: LinkID] = [:]
    private var nextID: UInt64 = 1

    /// Creates an empty book.
    public init() {}

    /// The link for a device object, if any.
    public func link(forDevice path: String) -> LinkRecord? { byDevice[path].flatMap { links[$0] } }

    /// Number of links in the given role.
    public func count(role: LinkRole) -> Int { links.values.filter { $0.role == role }.count }

    /// Opens a link for a device; returns nil when one already exists.
    public mutating func open(devicePath: String, address: String, role: LinkRole, attMTU: Int,
                              peer: PeerDatabase) -> LinkRecord? {
        guard byDevice[devicePath] == nil else { return nil }
        let id = LinkID(nextID)
        nextID += 1
        let record = LinkRecord(id: id, role: role, address: address, devicePath: devicePath,
                                attMTU: Self.clampMTU(attMTU), peer: peer,
                                rssi: nil, inFlight: 0)
        links[id] = record
        byDevice[devicePath] = id
        return record
    }

    /// Closes one link and returns what it was.
    public mutating func close(_ id: LinkID) -> LinkRecord? {
        guard let record = links.removeValue(forKey: id) else { return nil }
        byDevice[record.devicePath] = nil
        return record
    }

    /// Closes every link whose device path starts with `prefix` (an adapter path), oldest first.
    public mutating func closeAll(under prefix: String) -> [LinkRecord] {
        let doomed = links.values.filter { $0.devicePath.hasPrefix(prefix + "/") }.sorted { $0.id < $1.id }
        for record in doomed { _ = close(record.id) }
        return doomed
    }

    /// Records a new ATT MTU; returns the new frame limit when that limit changed.
    public mutating func setMTU(device path: String, attMTU: Int) -> Int? {
        guard let id = byDevice[path], var record = links[id] else { return nil }
        let before = record.maxFrame
        record.attMTU = Self.clampMTU(attMTU)
        links[id] = record
        return record.maxFrame == before ? nil : record.maxFrame
    }

    /// Records what the peer's GATT database holds; returns the link when this changed it.
    public mutating func setPeer(device path: String, _ peer: PeerDatabase) -> LinkRecord? {
        guard let id = byDevice[path], var record = links[id], record.peer != peer else { return nil }
        record.peer = peer
        links[id] = record
        return record
    }

    /// The send rule for a link now; nil when the link does not exist. `slots`: client slots by device
    /// (``ClientSlots/byDevice``); `slotsSubscribed`: slots whose characteristic has a subscriber.
    public func route(of id: LinkID, subscribed: Bool, slots: [String: Int] = [:],
                      slotsSubscribed: Set<Int> = []) -> SendRoute? {
        guard let record = links[id] else { return nil }
        let older = links.values.filter {
            $0.id < id && $0.role == .peripheral && $0.peer == .noMeshService && slots[$0.devicePath] == nil
        }.count
        let slot = slots[record.devicePath]
        return SendRoute(role: record.role, peer: record.peer, subscribed: subscribed, olderNotifyClients: older,
                         slot: slot, slotSubscribed: slot.map(slotsSubscribed.contains) ?? false)
    }

    /// Records that the peer wrote a frame to us; returns true the first time.
    public mutating func setPeerWrites(device path: String) -> Bool {
        guard let id = byDevice[path], links[id]?.peerWrites == false else { return false }
        links[id]?.peerWrites = true
        return true
    }

    /// Records the peer's slot characteristic we subscribed to (see ``LinkRecord/remoteSlot``).
    public mutating func setRemoteSlot(device path: String, _ characteristic: String?) {
        guard let id = byDevice[path] else { return }
        links[id]?.remoteSlot = characteristic
    }

    /// Records a signal strength; returns true when it changed.
    public mutating func setRSSI(device path: String, _ rssi: Int) -> LinkID? {
        guard let id = byDevice[path], links[id]?.rssi != rssi else { return nil }
        links[id]?.rssi = rssi
        return id
    }

    /// Decides how to carry a frame of `size` bytes; on `.write`, `.notify` and `.hold` the frame is counted
    /// in flight. `notifying`: whether any device subscribed to our message characteristic; `slots` and
    /// `slotsSubscribed` as in ``route(of:subscribed:slots:slotsSubscribed:)``.
    public mutating func decide(size: Int, on id: LinkID, queueLimit: Int, notifying: Bool,
                                slots: [String: Int] = [:], slotsSubscribed: Set<Int> = []) -> SendDecision {
        guard let record = links[id],
              let route = route(of: id, subscribed: notifying, slots: slots, slotsSubscribed: slotsSubscribed) else {
            return .refuse(.gone, .noLink)
        }
        guard size <= record.maxFrame else { return .refuse(.full, .oversized) }
        guard record.inFlight < queueLimit else { return .refuse(.full, .queueFull) }
        let decision: SendDecision
        switch route.decision {
        case .write(let path): decision = .write(characteristic: path)
        case .notify: decision = .notify
        case .notifySlot(let slot): decision = .notifySlot(slot)
        case .wait: decision = .hold
        case .refuse(let reason): return .refuse(.full, reason)
        }
        links[id]?.inFlight = record.inFlight + 1
        return decision
    }

    /// Marks one frame of a link as done (acknowledged or failed).
    public mutating func finished(on id: LinkID) {
        guard let record = links[id], record.inFlight > 0 else { return }
        links[id]?.inFlight = record.inFlight - 1
    }

    /// The longest frame sent on any link. ATT allows values of 512 bytes, but BlueZ 5.66 answered
    /// writes of 511 and 512 bytes with "Invalid Length" at an ATT MTU of 517 (seen in the VM), while
    /// 510 bytes passed; see docs/BLUEZ.md.
    public static let frameCap = LinkInfo.frameSizes.upperBound

    /// ATT MTUs outside 23...517 are clamped into it.
    public static func clampMTU(_ mtu: Int) -> Int { min(max(mtu, 23), 517) }
}
