import MeshLink

/// What the transport knows of the GATT database on the other end of a link.
public enum PeerDatabase: Equatable, Sendable {
    /// BlueZ has not resolved the peer's services yet (`Device1.ServicesResolved` is false).
    case unresolved
    /// Resolved, and the peer hosts the mesh message characteristic at this object path.
    case messageCharacteristic(String)
    /// Resolved, and the peer hosts no mesh service: a client that only dials and subscribes.
    case noMeshService
}

/// How one frame can travel on a link. See ``SendRoute``.
public enum RouteDecision: Equatable, Sendable {
    /// Write it to the peer's message characteristic: unicast on the LE connection.
    case write(characteristic: String)
    /// Notify it through our own message characteristic.
    case notify
    /// Notify it through the client slot characteristic the peer claimed (``ClientSlots``).
    case notifySlot(Int)
    /// Keep it until the route is known (peer's database not resolved, or nobody subscribed yet).
    case wait
    /// It cannot travel on this link.
    case refuse(SendRefusal)
}

/// The send rule for one link, as a pure value.
///
/// BlueZ 5.66 sends a notification of a D-Bus GATT application (a `PropertiesChanged(Value)` or a
/// write to an `AcquireNotify` socket) to **every** device that enabled notifications, and tells the
/// application only that the first device subscribed (`StartNotify` carries no device). Notifying one
/// device alone from an application needs BlueZ 5.76 (per-device `AcquireNotify` sockets since 5.69,
/// but until 5.76 each socket still reached every subscriber). So:
///
/// - a peer that hosts the mesh service is always **written** to, in either role (unicast);
/// - a peer that dialled us, hosts no mesh service and claimed a client slot (``ClientSlots``) gets
///   **notifications on its slot's characteristic**, once a device subscribed to that slot;
/// - a peer that dialled us and hosts no mesh service and holds no slot gets **notifications**, but only one such peer
///   at a time: every subscriber receives every notification, and a second such client would receive
///   the first one's key exchanges. Nodes (which host the service) also subscribe when they dial, and
///   ignore notifications; a second client without a service is refused;
/// - until the peer's database is resolved (and, for notifications, until someone subscribed) frames wait.
public struct SendRoute: Equatable, Sendable {
    /// Our role on the link.
    public var role: LinkRole
    /// The peer's GATT database as far as it is known.
    public var peer: PeerDatabase
    /// Whether any device has enabled notifications on our message characteristic (BlueZ says no more).
    public var subscribed: Bool
    /// Older peripheral links whose peer also hosts no mesh service and holds no slot (they hold the
    /// notification route of the message characteristic).
    public var olderNotifyClients: Int
    /// The client slot the peer holds, if any.
    public var slot: Int?
    /// Whether any device has enabled notifications on that slot's characteristic.
    public var slotSubscribed: Bool

    /// Creates the facts for one link.
    public init(role: LinkRole, peer: PeerDatabase, subscribed: Bool, olderNotifyClients: Int,
                slot: Int? = nil, slotSubscribed: Bool = false) {
        self.role = role
        self.peer = peer
        self.subscribed = subscribed
        self.olderNotifyClients = olderNotifyClients
        self.slot = slot
        self.slotSubscribed = slotSubscribed
    }

    /// How a frame travels on this link now.
    public var decision: RouteDecision {
        switch peer {
        case .messageCharacteristic(let path):
            return .write(characteristic: path)
        case .unresolved:
            return .wait
        case .noMeshService:
            guard role == .peripheral else { return .refuse(.noRoute) }
            if let slot { return slotSubscribed ? .notifySlot(slot) : .wait }
            guard olderNotifyClients == 0 else { return .refuse(.notifyTaken) }
            return subscribed ? .notify : .wait
        }
    }
}
