import DBusKit
import Glibc
import MeshLink
import Synchronization

/// Everything that runs on the D-Bus loop thread: the bus connection, bluetoothd's objects, the
/// links and every send decision.
///
/// Not `Sendable`: the transport keeps it in a ``DBusLoopBound`` box, so another thread can reach it
/// only through a job posted to the loop, and reading the box off the loop thread stops the process.
/// What other threads read (counters, the link list) or write (the profile) is in ``shared``.
final class BlueZSession {
    enum Registration: Equatable { case unregistered, registering, registered }

    struct Attempt {
        let path: String
        let address: String
        var stage: AttemptStage
        /// When the whole attempt must be over (session clock).
        var deadline: Double
        var call: UInt64 = 0
        var timer: UInt64 = 0
        /// When services were first seen resolved without our characteristic.
        var resolvedAt: Double?
        /// The timer of the next look for the characteristic.
        var lookupTimer: UInt64?
        /// The timer that ends the wait for `ServicesResolved` (``CharacteristicLookup/servicesWait``).
        var servicesTimer: UInt64?
        /// A client without a GATT server found the peer's message characteristic but no client
        /// slot yet: until this time it waits for the slots (bluetoothd adds a database's objects
        /// one by one), then subscribes to the message characteristic as to an older node.
        var slotsWaitUntil: Double?
    }

    let config: BlueZConfiguration
    let shared: BlueZSharedBox
    let logSink: @Sendable (BlueZLogEvent) -> Void
    let handler: @Sendable (TransportEvent) -> Void
    let loop: DBusEventLoop
    let filter: AddressFilter
    let adapterPath: String
    var gatt: GATTApplication

    var connection: DBusConnection?
    /// The links; their list is published to ``shared`` whenever a link comes, goes or changes.
    var links = LinkBook()
    /// The ATT MTU of each device's current connection, from evidence seen on it (``ConnectionMTU``).
    var connectionMTU = ConnectionMTU()
    /// Whether any device subscribed to our message characteristic.
    var notifying = false
    /// Which client without a GATT server holds which slot characteristic (docs/BLUEZ.md, "Client slots").
    var slots: ClientSlots
    /// Slots whose characteristic has a subscriber (BlueZ's StartNotify; it never says who).
    var slotsNotifying: Set<Int> = []
    var cache = BlueZObjectCache()
    var bluezOwner: String?
    /// Bumped whenever bluetoothd or the bus goes away, so late replies from before are ignored.
    var epoch: UInt64 = 0
    var appState = Registration.unregistered
    var advState = Registration.unregistered
    var discoveryActive = false
    var discoveryStarting = false
    var powerRequested = false
    /// When the adapter's address must change with the advertised name (``AddressRotation``).
    var rotation: AddressRotation
    /// A power cycle for ``rotation`` is under way: power the adapter on again once it is off.
    var cyclingAdapter = false
    var connecting: Attempt?
    var backoff: BackoffSchedule
    var retries: BackoffSchedule
    /// Backoff of the rechecks for bluetoothd, the adapter and power (``recheckPolicy``).
    var waits = BackoffSchedule(policy: BlueZSession.recheckPolicy, capacity: 4)
    /// Conditions retried every few seconds (the system bus missing): logged once per change.
    var repeated = RepeatedConditionLog()
    /// The armed recheck: what it looks for, its timer, and when it fires (session clock).
    var recheck: (what: Recheck, timer: UInt64, at: Double)?
    /// Whether bluetoothd's objects were read since it appeared.
    var objectsLoaded = false
    /// The state last published to ``shared``.
    var publishedState: BlueZTransportState?
    var holdUntil: [String: Double] = [:]
    var wakeTimer: UInt64?
    var advRefreshTimer: UInt64?
    /// The local name changed while a registration was under way: register again once it is done.
    var advertisementStale = false
    var stopping = false
    /// Frames waiting for their link's single outstanding WriteValue (BlueZ allows one per characteristic).
    var writeQueues: [LinkID: [(frame: [UInt8], characteristic: String)]] = [:]
    var writing: Set<LinkID> = []
    /// Which ATT write each link's next frame goes out as (``WritePacer``); forgotten with the link.
    var pacers: [LinkID: WritePacer] = [:]
    /// Frames waiting for their link's route (the peer's database, or a subscriber), in order.
    var heldFrames: [LinkID: [[UInt8]]] = [:]
    /// Closes a link whose held frames found no route in time.
    var holdTimers: [LinkID: UInt64] = [:]
    /// When each connected device without a link was first seen connected (for the stale-connection reaper).
    var connectedSince: [String: Double] = [:]
    var reaperTimer: UInt64?

    /// Creates the session for `loop`; nothing runs until ``connectBus()`` runs on the loop thread.
    init(configuration: BlueZConfiguration, loop: DBusEventLoop, shared: BlueZSharedBox,
         log: @escaping @Sendable (BlueZLogEvent) -> Void,
         handler: @escaping @Sendable (TransportEvent) -> Void) throws(DBusError) {
        config = configuration
        self.shared = shared
        logSink = log
        self.handler = handler
        self.loop = loop
        filter = AddressFilter(allow: configuration.allowAddresses, deny: configuration.denyAddresses)
        adapterPath = "/org/bluez/" + configuration.adapter
        gatt = try GATTApplication(configuration: configuration)
        if let name = shared.withLock({ $0.localName }) { _ = gatt.setLocalName(name) }
        slots = ClientSlots(count: configuration.gattServer ? configuration.clientSlots : 0)
        rotation = AddressRotation(enabled: configuration.rotateAddress, minimumInterval: configuration.addressRotationInterval)
        backoff = BackoffSchedule(policy: configuration.reconnect)
        retries = BackoffSchedule(policy: ReconnectPolicy(initialDelay: 1, maxDelay: 10, penaltyAfterFailures: 1000),
                                  capacity: 8)
    }

    // MARK: helpers

    func log(_ level: BlueZLogEvent.Level, _ message: String) {
        logSink(BlueZLogEvent(level, "[\(config.adapter)] " + message))
    }

    func count(_ change: (inout BlueZCounters) -> Void) {
        shared.withLock { change(&$0.counters) }
    }

    /// Reports an event to the node: the handler runs here, on the loop thread, and only enqueues.
    func deliver(_ event: TransportEvent) { handler(event) }

    /// Publishes the link list for readers on other threads (``BlueZTransport/links``).
    func publishLinks() {
        let list = links.links.values.sorted { $0.id < $1.id }.map(\.info)
        shared.withLock { $0.links = list }
    }

    func now() -> Double { BlueZClock.now() }

    /// Calls a BlueZ (or bus) method; `done` runs on the loop thread unless bluetoothd went away meanwhile.
    @discardableResult
    func call(_ destination: String = BlueZ.bus, path: String, interface: String, member: String,
              _ arguments: [DBusValue] = [], timeout: Double? = nil,
              _ done: @escaping (Result<DBusArguments, DBusError>) -> Void) -> UInt64 {
        let sentEpoch = epoch
        guard let connection else { done(.failure(.disconnected)); return 0 }
        let message: DBusMessage
        do throws(DBusError) {
            message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface,
                                                 member: member, arguments: arguments)
        } catch {
            count { $0.dbus.record(error) }
            done(.failure(error))
            return 0
        }
        return connection.call(message, timeout: timeout ?? config.callTimeout) { [self] result in
            guard sentEpoch == epoch else { return }
            switch result {
            case .success(let reply):
                do throws(DBusError) { done(.success(try reply.arguments())) } catch {
                    count { $0.dbus.record(error) }
                    done(.failure(error))
                }
            case .failure(let error):
                done(.failure(error))
            }
            publishState()
        }
    }

    /// Emits a signal from one of our objects.
    func emit(path: String, interface: String, member: String, _ arguments: [DBusValue]) {
        do throws(DBusError) {
            connection?.send(try DBusMessage.signal(path: path, interface: interface, member: member,
                                                    arguments: arguments))
        } catch {
            count { $0.dbus.record(error) }
        }
    }

    /// Whether the adapter can be used now.
    var adapterReady: Bool { bluezOwner != nil && cache.isPowered(adapterPath) && !stopping && !cyclingAdapter }

    // MARK: bus connection

    func connectBus() {
        guard !stopping else { return }
        let connection = DBusConnection(loop: loop)
        do throws(DBusError) {
            if let address = config.busAddress { try connection.open(address: address) } else { try connection.openSystemBus() }
        } catch {
            count { $0.dbus.record(error) }
            let delay = retries.recordFailure("bus", now: now(), unit: Double.random(in: 0..<1))
            switch repeated.report("bus", summary: error.summary) {
            case .started, .changed:
                log(.warning, "system bus unavailable (\(error.summary)); retrying every few seconds, logged again when it changes")
            default:
                log(.debug, "system bus still unavailable (\(error.summary)); retrying in \(fixed(delay, 1)) s")
            }
            loop.after(delay) { [self] in connectBus() }
            publishState()
            return
        }
        retries.recordSuccess("bus")
        if case .ended(let repeats) = repeated.clear("bus") {
            log(.info, "system bus available again after \(repeats) failed attempt\(repeats == 1 ? "" : "s")")
        }
        connection.onMessage = { [unowned self] in route($0) }
        connection.onError = { [unowned self] error in count { $0.dbus.record(error) } }
        connection.onDisconnect = { [unowned self] in busLost() }
        self.connection = connection
        log(.info, "connected to the system bus as \(connection.uniqueName)")
        let rules = [
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
            "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'",
            // Only our adapter's subtree: with several adapters (or nodes) on one bus, discovery floods
            // every listener with the other adapters' RSSI and advertising-data changes otherwise.
            "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                + "path_namespace='\(adapterPath)'",
        ]
        for rule in rules {
            call("org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                 member: "AddMatch", [.string(rule)]) { [self] result in
                if case .failure(let error) = result { log(.error, "AddMatch failed: \(error.summary)") }
            }
        }
        lookUpBluetoothd()
        publishState()
    }

    func busLost() {
        log(.error, "system bus connection lost")
        bluezGone(reason: "system bus lost")
        connection = nil
        disarmRecheck()
        guard !stopping else { return }
        let delay = retries.recordFailure("bus", now: now(), unit: Double.random(in: 0..<1))
        loop.after(delay) { [self] in connectBus() }
        publishState()
    }

    // MARK: bluetoothd presence

    func bluezAppeared(owner: String) {
        epoch += 1
        bluezOwner = owner
        objectsLoaded = false
        found(.bluetoothd)
        log(.info, "bluetoothd is \(owner)")
        loadObjects(owner: owner)
    }

    /// Reads bluetoothd's objects (`GetManagedObjects`) into the cache, then sets up the adapter.
    func loadObjects(owner: String) {
        call(path: "/", interface: DBusObjectTree.objectManager, member: "GetManagedObjects") { [self] result in
            switch result {
            case .success(let args):
                do throws(DBusError) {
                    try cache.load(managedObjects: try args.at(0))
                } catch {
                    count { $0.dbus.record(error); $0.badSignals += 1 }
                    log(.error, "unreadable GetManagedObjects reply: \(error.summary)")
                }
                objectsLoaded = true
                setUpAdapter()
            case .failure(let error):
                log(.error, "GetManagedObjects failed: \(error.summary)")
                loop.after(2) { [self] in if bluezOwner == owner, cache.objects.isEmpty { bluezAppeared(owner: owner) } }
            }
        }
    }

    func bluezGone(reason: String) {
        guard bluezOwner != nil || !cache.objects.isEmpty else { return }
        epoch += 1
        bluezOwner = nil
        count { $0.bluezLost += 1 }
        log(.warning, "bluetoothd left (\(reason)); dropping links, will re-register when it returns")
        dropLinks(under: adapterPath, reason: reason)
        cache.clear()
        holdUntil.removeAll()
        objectsLoaded = false
        resetAdapterState()
        connectionMTU = ConnectionMTU()
        // NameOwnerChanged brings it back at once; look again now and then in case that is missed.
        armRecheck(.bluetoothd) { [self] in lookUpBluetoothd() }
    }

    /// Forgets registrations, discovery and any connection attempt (their owner is gone).
    func resetAdapterState() {
        appState = .unregistered
        advState = .unregistered
        discoveryActive = false
        discoveryStarting = false
        powerRequested = false
        cyclingAdapter = false
        rotation.forgotten()
        connectedSince.removeAll()
        if let timer = reaperTimer { loop.cancelTimer(timer); reaperTimer = nil }
        if let attempt = connecting {
            loop.cancelTimer(attempt.timer)
            if let timer = attempt.lookupTimer { loop.cancelTimer(timer) }
            connecting = nil
        }
        if let notifications = gatt.setNotifying(false) {
            emit(path: gatt.messagePath, interface: DBusObjectTree.properties, member: "PropertiesChanged", notifications)
        }
        notifying = false
    }
}
