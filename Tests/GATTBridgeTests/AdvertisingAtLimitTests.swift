import Foundation
import Synchronization
import Testing
@testable import DBusKit
@testable import GATTBridge

/// The real session on a private dbus-daemon with a stand-in bluetoothd: a node whose links fill
/// `maxConnections` withdraws its advertisement, so that peers do not dial a node that would refuse
/// them, and advertises again when a link ends (docs/BLUEZ.md, "Links and roles").
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")))
struct AdvertisingAtLimitTests {
    private static let device = "/org/bluez/hci0/dev_00_11_22_33_44_55"

    /// Polls `read` until `accept` holds or `seconds` pass; the last value seen.
    private func poll<T>(_ seconds: Double, _ read: () -> T, _ accept: (T) -> Bool) -> T {
        let end = Date().addingTimeInterval(seconds)
        var seen = read()
        while !accept(seen), Date() < end {
            usleep(20_000)
            seen = read()
        }
        return seen
    }

    @Test func aFullNodeStopsAdvertisingUntilALinkEnds() throws {
        let bus = try DBusLoopbackTests.Bus()
        let events = Mutex<[String]>([])
        let node = Mutex<String?>(nil)
        let fake = try AdvertisedNameChangeTests.standInBluetoothd(on: bus) { message, connection in
            guard message.member == "RegisterAdvertisement" || message.member == "UnregisterAdvertisement" else { return false }
            node.withLock { $0 = message.sender }
            events.withLock { $0.append(message.member == "RegisterAdvertisement" ? "register" : "unregister") }
            connection.send(try! message.makeReturn())
            return true
        }
        defer { fake.close() }
        let fakeConnection = fake.connection

        var configuration = BlueZConfiguration(localName: "abcd1234")
        configuration.busAddress = bus.address
        configuration.maxConnections = 1
        let transport = try BlueZTransport(configuration: configuration) { _ in }
        let linkEvents = Mutex<[String]>([])
        try transport.start { event in
            switch event {
            case .linkUp: linkEvents.withLock { $0.append("up") }
            case .linkDown: linkEvents.withLock { $0.append("down") }
            default: break
            }
        }
        defer { transport.stop() }
        #expect(poll(20, { events.withLock { $0 } }, { !$0.isEmpty }) == ["register"])

        // A central connects and writes a frame to the message characteristic, as bluetoothd relays it:
        // the one link allowed is up, and the advertisement goes.
        guard let nodeName = node.withLock({ $0 }) else { Issue.record("no registration seen"); return }
        let write = try DBusMessage.methodCall(
            destination: nodeName, path: "/org/meshnode/hci0/app/service0/char0",
            interface: BlueZ.characteristic, member: "WriteValue",
            arguments: [.bytes([0x01, 0x02, 0x03]), .propertyMap(["device": .variant(.objectPath(Self.device))])])
        fake.loop.post { fakeConnection.send(write) }
        #expect(poll(20, { linkEvents.withLock { $0 } }, { !$0.isEmpty }) == ["up"])
        #expect(poll(20, { events.withLock { $0 } }, { $0.count >= 2 }) == ["register", "unregister"])
        // While full it stays off the air (a registration would come within the 1 s debounce).
        #expect(poll(2.5, { events.withLock { $0 } }, { $0.count >= 3 }) == ["register", "unregister"])

        // The device goes: the link ends and the node advertises again.
        let removed = try DBusMessage.signal(
            path: "/", interface: DBusObjectTree.objectManager, member: "InterfacesRemoved",
            arguments: [.objectPath(Self.device), .stringArray([BlueZ.device])])
        fake.loop.post { fakeConnection.send(removed) }
        #expect(poll(20, { linkEvents.withLock { $0 } }, { $0.count >= 2 }) == ["up", "down"])
        #expect(poll(20, { events.withLock { $0 } }, { $0.count >= 3 }) == ["register", "unregister", "register"])
        #expect(transport.counters.advertisementRegistrations == 2)
    }
}
