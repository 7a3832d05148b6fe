import DBusKit
/// What the BlueZ transport has done and seen, for status output and tests in the VM.
public struct BlueZCounters: Equatable, Sendable {
    /// Frames delivered to the engine.
    public var framesReceived = 0
    /// Frames written to a peer's characteristic that bluetoothd answered without an error: a Write
    /// Request once the peer's stack acknowledged it, a Write Command once our bluetoothd queued it.
    public var framesWritten = 0
    /// Of ``framesWritten``, those written as Write Commands (``WritePacer``).
    public var framesWrittenAsCommands = 0
    /// Frames sent as notifications.
    public var notificationsSent = 0
    /// Frames that waited for the peer's GATT database to resolve (or for a subscriber) before they went out.
    public var framesHeld = 0
    /// Notifications ignored on a link whose peer writes to us: they went to every subscriber of that
    /// peer and were meant for a client of it without a GATT server.
    public var notificationsIgnored = 0
    /// Clients without a GATT server refused because another one held the notification route.
    public var notifyClientsRefused = 0
    /// Client slots claimed (a write to a free slot characteristic; docs/BLUEZ.md, "Client slots").
    public var clientSlotClaims = 0
    /// Writes to a slot characteristic refused: another device holds the slot, or the writer holds another.
    public var clientSlotsRefused = 0
    /// Of those refusals, the ones made while every slot was held.
    public var clientSlotsExhausted = 0
    /// Claims dropped because the claiming device sent no frame within 15 s.
    public var clientSlotClaimsExpired = 0
    /// Writes that BlueZ answered with an error or that timed out.
    public var writesFailed = 0
    /// Accepted frames still queued when their link went down (never sent).
    public var framesDroppedWithLink = 0
    /// Frames the D-Bus loop thread refused (all reasons; `relayctl stats` shows this one).
    public var framesRefused = 0
    /// Frames refused, by reason.
    public var refused: [SendRefusal: Int] = [:]
    /// Device1.Connect attempts started.
    public var connectAttempts = 0
    /// Attempts that failed (error, timeout, no mesh service, StartNotify refused).
    public var connectFailures = 0
    /// Links reported up.
    public var linksUp = 0
    /// Links reported down.
    public var linksDown = 0
    /// Peers refused by the address filter.
    public var deniedByAddress = 0
    /// Peers refused because the connection limit was reached.
    public var refusedOverLimit = 0
    /// Times bluetoothd left the bus.
    public var bluezLost = 0
    /// Times the adapter powered off.
    public var adapterPoweredOff = 0
    /// Times the adapter disappeared.
    public var adapterRemoved = 0
    /// Successful RegisterApplication calls.
    public var applicationRegistrations = 0
    /// Successful RegisterAdvertisement calls.
    public var advertisementRegistrations = 0
    /// Times the node changed the advertised name (each epoch, docs/PROTOCOL.md D13).
    public var advertisedNameChanges = 0
    /// Adapter power cycles made so that the address changes with the advertised name (``AddressRotation``).
    public var addressRotations = 0
    /// Times the address kept a second name: a cycle was refused, or came too soon after the last.
    public var addressRotationsSkipped = 0
    /// Failed registrations of either kind.
    public var registrationFailures = 0
    /// Requests from bluetoothd that were malformed or not allowed.
    public var badRequests = 0
    /// Signals from bluetoothd that could not be decoded.
    public var badSignals = 0
    /// Connections that never became links within the setup bound and were dropped.
    public var staleConnectionsDropped = 0
    /// Attempts given up because services did not resolve within the services wait (10 s).
    public var servicesTimeouts = 0
    /// Device objects removed from bluetoothd after repeated failures, to clear its state.
    public var devicesRemoved = 0
    /// Failed attempts whose LE connection was left up because the peer may be using it.
    public var sharedConnectionsKept = 0
    /// Profile reads refused because the node is not discoverable.
    public var profileReadsRefused = 0
    /// D-Bus errors by kind.
    public var dbus = DBusErrorCounts()

    /// Creates zeroed counters.
    public init() {}

    /// Counts one refused frame.
    public mutating func refuse(_ reason: SendRefusal) {
        framesRefused += 1
        refused[reason, default: 0] += 1
    }
}

/// One line for the daemon's log.
public struct BlueZLogEvent: Equatable, Sendable, CustomStringConvertible {
    /// How important the line is.
    public enum Level: String, Sendable, Comparable {
        /// Routine detail.
        case debug
        /// Normal operation (links, registrations).
        case info
        /// Something failed and will be retried.
        case warning
        /// Something failed that needs attention.
        case error

        private var rank: Int { [.debug: 0, .info: 1, .warning: 2, .error: 3][self] ?? 0 }
        /// Orders by importance.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    /// The level.
    public var level: Level
    /// The message, one line.
    public var message: String

    /// Creates a log line.
    public init(_ level: Level, _ message: String) {
        self.level = level
        self.message = message
    }

    /// `level: message`.
    public var description: String { "\(level.rawValue): \(message)" }
}
