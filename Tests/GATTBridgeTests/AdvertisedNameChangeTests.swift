import Foundation
import Synchronization
import Testing
@testable import DBusKit
@testable import GATTBridge

/// The real session on a private dbus-daemon with a stand-in bluetoothd that, like bluetoothd, reads
/// the advertisement's `LocalName` from us on every `RegisterAdvertisement`: a new name set on the
/// running transport is registered again at once (docs/PROTOCOL.md D13, docs/BLUEZ.md "Faults").
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")))
struct AdvertisedNameChangeTests {
    static let adapterOn = DBusValue.dictionary(key: "o", value: "a{sa{sv}}", [
        DBusDictEntry(key: .objectPath("/org/bluez/hci0"), value: .dictionary(key: "s", value: "a{sv}", [
            DBusDictEntry(key: .string(BlueZ.adapter), value: .propertyMap(["Powered": .variant(.boolean(true))])),
        ])),
    ])

    /// Polls `read` until `accept` holds (at most 20 s); the last value seen.
    private func poll<T>(_ read: () -> T, _ accept: (T) -> Bool) -> T {
        let end = Date().addingTimeInterval(20)
        var seen = read()
        while !accept(seen), Date() < end {
            usleep(20_000)
            seen = read()
        }
        return seen
    }

    /// Answers `RegisterAdvertisement` as bluetoothd does: it reads the advertisement's
    /// `LocalName` first, hands it to `record`, then returns.
    static func answerRegistration(
        _ message: DBusMessage, on connection: DBusConnection, record: @escaping @Sendable (String) -> Void
    ) {
        let path = (try? message.arguments().at(0).objectPath()) ?? ""
        let get = try! DBusMessage.methodCall(
            destination: message.sender ?? "", path: path, interface: DBusObjectTree.properties,
            member: "Get", arguments: [.string(BlueZ.advertisement), .string("LocalName")])
        connection.call(get, timeout: 5) { result in
            record((try? result.get().arguments().at(0).string()) ?? "?")
            connection.send(try! message.makeReturn())
        }
    }

    /// Takes bluetoothd's bus name for `connection`; `done` says whether it was granted.
    static func ownBlueZName(_ connection: DBusConnection, done: @escaping @Sendable (Bool) -> Void) {
        let request = try! DBusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", arguments: [.string(BlueZ.bus), .uint32(4)])
        connection.call(request, timeout: 5) { done((try? $0.get()) != nil) }
    }

    /// A stand-in bluetoothd on `bus`: it lists one powered adapter, `answer` takes the method calls
    /// it answers itself (true when it did) and every other call gets an empty reply. It holds
    /// bluetoothd's bus name when this returns; the caller closes it.
    static func standInBluetoothd(
        on bus: DBusLoopbackTests.Bus, answer: @escaping @Sendable (DBusMessage, DBusConnection) -> Bool
    ) throws -> DBusLoopbackTests.Endpoint {
        let fake = try DBusLoopbackTests.Endpoint(address: bus.address)
        let connection = fake.connection
        let owned = fake.onLoop { (done: @escaping @Sendable (Bool) -> Void) in
            connection.onMessage = { message in
                guard message.kind == .methodCall else { return false }
                if message.member == "GetManagedObjects" {
                    connection.send(try! message.makeReturn([Self.adapterOn]))
                } else if !answer(message, connection) {
                    connection.send(try! message.makeReturn())
                }
                return true
            }
            Self.ownBlueZName(connection, done: done)
        }
        #expect(owned == true)
        return fake
    }

    /// Signals the stand-in adapter's new `Powered` value, as bluetoothd does.
    static func signalPowered(_ on: Bool, on connection: DBusConnection) {
        connection.send(try! DBusMessage.signal(
            path: "/org/bluez/hci0", interface: DBusObjectTree.properties, member: "PropertiesChanged",
            arguments: [.string(BlueZ.adapter), .propertyMap(["Powered": .variant(.boolean(on))]), .stringArray([])]))
    }

    /// A started transport on `bus` advertising "abcd1234" and, with `rotating`, changing its address
    /// with every name (no minimum interval); the caller stops it.
    static func startedTransport(on bus: DBusLoopbackTests.Bus, rotating: Bool) throws -> BlueZTransport {
        var configuration = BlueZConfiguration(localName: "abcd1234")
        configuration.busAddress = bus.address
        configuration.rotateAddress = rotating
        configuration.addressRotationInterval = 0
        let transport = try BlueZTransport(configuration: configuration) { _ in }
        try transport.start { _ in }
        return transport
    }

    @Test func aNewNameIsRegisteredAgainAtOnce() throws {
        let bus = try DBusLoopbackTests.Bus()
        let registered = Mutex<[String]>([])
        let fake = try Self.standInBluetoothd(on: bus) { message, connection in
            guard message.member == "RegisterAdvertisement" else { return false }
            Self.answerRegistration(message, on: connection) { name in registered.withLock { $0.append(name) } }
            return true
        }
        defer { fake.close() }

        var configuration = BlueZConfiguration(localName: "abcd1234")
        configuration.busAddress = bus.address
        let transport = try BlueZTransport(configuration: configuration) { _ in }
        #expect(throws: BlueZConfigurationError.badLocalName("")) { try transport.setLocalName("") }
        #expect(throws: BlueZConfigurationError.advertisementTooLarge(bytes: 32)) { try transport.setLocalName("123456789") }
        try transport.start { _ in }
        defer { transport.stop() }

        #expect(poll({ registered.withLock { $0 } }, { !$0.isEmpty }) == ["abcd1234"])
        try transport.setLocalName("feed0001")
        #expect(poll({ registered.withLock { $0 } }, { $0.count >= 2 }) == ["abcd1234", "feed0001"])
        try transport.setLocalName("feed0001")
        try transport.setLocalName("feed0002")
        #expect(poll({ registered.withLock { $0 } }, { $0.count >= 3 }) == ["abcd1234", "feed0001", "feed0002"])
        let counters = poll({ transport.counters }, { $0.advertisementRegistrations >= 3 })
        #expect(counters.advertisementRegistrations == 3)
        #expect(counters.advertisedNameChanges == 2)
    }

    /// With `rotateAddress`, an adapter found on is powered off and on before anything is advertised
    /// under the first name, and again before a new name goes on air, its advertisement withdrawn
    /// before each power-off (docs/BLUEZ.md, "Addresses").
    @Test func aNewNameGoesOutFromANewAddress() throws {
        let bus = try DBusLoopbackTests.Bus()
        let events = Mutex<[String]>([])
        let fake = try Self.standInBluetoothd(on: bus) { message, connection in
            switch message.member {
            case "Set" where message.interface == DBusObjectTree.properties:
                // bluetoothd answers, then signals the new Powered value.
                let powered = (try? message.arguments().at(2).bool()) ?? false
                events.withLock { $0.append(powered ? "on" : "off") }
                connection.send(try! message.makeReturn())
                Self.signalPowered(powered, on: connection)
            case "RegisterAdvertisement":
                Self.answerRegistration(message, on: connection) { name in events.withLock { $0.append(name) } }
            case "UnregisterAdvertisement":
                events.withLock { $0.append("unregister") }
                connection.send(try! message.makeReturn())
            default:
                return false
            }
            return true
        }
        defer { fake.close() }
        let transport = try Self.startedTransport(on: bus, rotating: true)
        defer { transport.stop() }

        let first = poll({ events.withLock { $0 } }, { $0.contains("abcd1234") })
        #expect(Array(first.prefix(4)) == ["unregister", "off", "on", "abcd1234"])
        try transport.setLocalName("feed0001")
        let second = poll({ events.withLock { $0 } }, { $0.contains("feed0001") })
        let afterFirst = second.suffix(from: (second.lastIndex(of: "abcd1234") ?? 0) + 1)
        // The kernel would start a registered advertisement again at power-on with the old name: it
        // is withdrawn before the power goes off.
        #expect(Array(afterFirst.prefix(4)) == ["unregister", "off", "on", "feed0001"], "\(second)")
        let counters = poll({ transport.counters }, { $0.addressRotations >= 2 })
        #expect(counters.addressRotations == 2)
        #expect(counters.addressRotationsSkipped == 0)
    }

    /// A power-off whose call fails may still happen (a bluetoothd too slow to answer in time): the
    /// transport powers the adapter on either way, and the new name goes out once it is on, whether
    /// the adapter went off late or never (docs/BLUEZ.md, "Addresses").
    @Test(arguments: [true, false])
    func aFailedPowerOffStillEndsWithTheAdapterOn(offHappensLate: Bool) throws {
        let bus = try DBusLoopbackTests.Bus()
        let events = Mutex<[String]>([])
        let state = Mutex((powered: true, offs: 0))
        let fake = try Self.standInBluetoothd(on: bus) { message, connection in
            func signalPowered(_ on: Bool) {
                state.withLock { $0.powered = on }
                Self.signalPowered(on, on: connection)
            }
            switch message.member {
            case "Set" where message.interface == DBusObjectTree.properties:
                let on = (try? message.arguments().at(2).bool()) ?? false
                if on {
                    events.withLock { $0.append("on") }
                    connection.send(try! message.makeReturn())
                    if !state.withLock({ $0.powered }) { signalPowered(true) }
                } else if state.withLock({ $0.offs += 1; return $0.offs }) == 1 {
                    events.withLock { $0.append("off") }
                    connection.send(try! message.makeReturn())
                    signalPowered(false)
                } else {
                    // The second power-off (the new name's) fails; it may happen all the same.
                    events.withLock { $0.append("off failed") }
                    connection.send(try! message.makeError(name: "org.freedesktop.DBus.Error.NoReply", text: "timed out"))
                    if offHappensLate { signalPowered(false) }
                }
            case "RegisterAdvertisement":
                Self.answerRegistration(message, on: connection) { name in events.withLock { $0.append(name) } }
            default:
                return false
            }
            return true
        }
        defer { fake.close() }
        let transport = try Self.startedTransport(on: bus, rotating: true)
        defer { transport.stop() }

        _ = poll({ events.withLock { $0 } }, { $0.contains("abcd1234") })
        try transport.setLocalName("feed0001")
        let seen = poll({ events.withLock { $0 } }, { $0.contains("feed0001") })
        let afterFirst = seen.suffix(from: (seen.lastIndex(of: "abcd1234") ?? 0) + 1)
        #expect(Array(afterFirst.prefix(3)) == ["off failed", "on", "feed0001"], "\(seen)")
        #expect(state.withLock { $0.powered })
        #expect(transport.counters.addressRotationsSkipped == 1)
    }
}
