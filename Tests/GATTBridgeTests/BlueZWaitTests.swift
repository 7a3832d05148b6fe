import Foundation
import Synchronization
import Testing
@testable import DBusKit
@testable import GATTBridge

/// The real session on a private dbus-daemon, with a stand-in for bluetoothd that the test
/// starts and stops: the transport waits for bluetoothd, then for the adapter, and says so; it
/// follows bluetoothd leaving and the bus going away, and never gives up.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")))
struct BlueZWaitTests {
    /// Polls the published state until `accept` holds (at most `timeout` seconds); the last state seen.
    private func state(of transport: BlueZTransport, within timeout: Double = 10,
                       _ accept: (BlueZTransportState) -> Bool) -> BlueZTransportState {
        let end = Date().addingTimeInterval(timeout)
        var seen = transport.state
        while !accept(seen), Date() < end {
            usleep(20_000)
            seen = transport.state
        }
        return seen
    }

    /// An adapter object as bluetoothd would list it, off.
    private static let adapterOff = DBusValue.dictionary(key: "o", value: "a{sa{sv}}", [
        DBusDictEntry(key: .objectPath("/org/bluez/hci0"), value: .dictionary(key: "s", value: "a{sv}", [
            DBusDictEntry(key: .string(BlueZ.adapter), value: .propertyMap(["Powered": .variant(.boolean(false))])),
        ])),
    ])

    @Test func waitsForBluetoothdThenTheAdapterAndFollowsThemAway() throws {
        let bus = try DBusLoopbackTests.Bus()
        var configuration = BlueZConfiguration(localName: "abcd1234", powerOnAdapter: false)
        configuration.busAddress = bus.address
        let transport = try BlueZTransport(configuration: configuration) { _ in }
        try transport.start { _ in }
        defer { transport.stop() }

        let absent = state(of: transport) { if case .waitingForBluetoothd(.some) = $0 { true } else { false } }
        guard case .waitingForBluetoothd(.some) = absent else { Issue.record("no wait for bluetoothd: \(absent)"); return }
        #expect(transport.stateSummary.hasPrefix("waiting for bluetoothd (retry"))

        // A stand-in for bluetoothd takes org.bluez; it has no adapter until `hasAdapter` is set.
        let fake = try DBusLoopbackTests.Endpoint(address: bus.address)
        let hasAdapter = Atomic<Bool>(false)
        let fakeConnection = fake.connection
        let owned = fake.onLoop { (done: @escaping @Sendable (Bool) -> Void) in
            fakeConnection.onMessage = { message in
                guard message.kind == .methodCall, message.member == "GetManagedObjects" else { return false }
                let objects = hasAdapter.load(ordering: .acquiring)
                    ? Self.adapterOff : .dictionary(key: "o", value: "a{sa{sv}}", [])
                fakeConnection.send(try! message.makeReturn([objects]))
                return true
            }
            let request = try! DBusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "RequestName", arguments: [.string(BlueZ.bus), .uint32(4)])
            fakeConnection.call(request, timeout: 5) { done((try? $0.get()) != nil) }
        }
        #expect(owned == true)

        let noAdapter = state(of: transport) { if case .waitingForAdapter("hci0", .some) = $0 { true } else { false } }
        guard case .waitingForAdapter("hci0", .some) = noAdapter else { Issue.record("no wait for the adapter: \(noAdapter)"); return }
        #expect(transport.stateSummary.hasPrefix("waiting for adapter hci0 (retry"))

        // No InterfacesAdded is sent: only the recheck (about 1 s later) can find the adapter.
        hasAdapter.store(true, ordering: .releasing)
        #expect(state(of: transport) { $0 == .adapterPoweredOff("hci0", retryAt: nil) } == .adapterPoweredOff("hci0", retryAt: nil))

        // bluetoothd leaves the bus: waiting for it again, with a recheck armed.
        fake.close()
        let gone = state(of: transport) { if case .waitingForBluetoothd(.some) = $0 { true } else { false } }
        guard case .waitingForBluetoothd(.some) = gone else { Issue.record("bluetoothd's exit not seen: \(gone)"); return }

        // The bus itself goes: reconnecting with backoff, still running.
        kill(bus.process.processIdentifier, SIGKILL)
        let noBus = state(of: transport) { if case .connectingToBus(.some) = $0 { true } else { false } }
        guard case .connectingToBus(.some) = noBus else { Issue.record("the bus loss not seen: \(noBus)"); return }
        #expect(transport.stateSummary.hasPrefix("system bus unavailable (retry"))
    }
}
