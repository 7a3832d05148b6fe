import Foundation
import Synchronization
import Testing
@testable import DBusKit
@testable import GATTBridge

/// End-to-end over a private dbus-daemon: one loop exports the GATT objects, another calls them with
/// pending calls. Runs where `dbus-daemon` is installed (package `dbus`), as on the VM host.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")))
struct DBusLoopbackTests {
    /// One connection on its own loop thread.
    final class Endpoint: Sendable {
        let loop: DBusEventLoop
        let connection: DBusConnection

        init(address: String) throws {
            loop = try DBusEventLoop()
            connection = DBusConnection(loop: loop)
            loop.start(name: "test-loop")
            let connection = connection
            let failure = try #require(onLoop { done in
                do throws(DBusError) { try connection.open(address: address); done(nil as DBusError?) } catch { done(error) }
            })
            if let failure { throw failure }
        }

        /// Runs `body` on the loop thread and waits (at most 20 s, against hangs) for its answer.
        func onLoop<T: Sendable>(_ body: @escaping @Sendable (@escaping @Sendable (T) -> Void) -> Void) -> T? {
            let box = Mutex<T?>(nil)
            let ready = DispatchSemaphore(value: 0)
            loop.post { body { value in box.withLock { $0 = value }; ready.signal() } }
            guard ready.wait(timeout: .now() + 20) == .success else { return nil }
            return box.withLock { $0 }
        }

        func call(_ message: DBusMessage, timeout: Double) -> Result<DBusMessage, DBusError>? {
            let connection = connection
            return onLoop { done in connection.call(message, timeout: timeout) { done($0) } }
        }

        func close() {
            let connection = connection
            let ready = DispatchSemaphore(value: 0)
            loop.stop { connection.close(); ready.signal() }
            _ = ready.wait(timeout: .now() + 20)
        }
    }

    /// A private bus for one test.
    final class Bus {
        let process = Process()
        let address: String

        init() throws {
            let pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1",
                                 "--address=unix:tmpdir=\(NSTemporaryDirectory())"]
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line = Data()
            while let byte = try pipe.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
                line.append(first)
            }
            address = String(decoding: line, as: UTF8.self)
        }

        // SIGKILL: the test runner's children may inherit a blocked SIGTERM.
        deinit { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    private func kind(_ result: Result<DBusMessage, DBusError>) -> DBusError.Kind? {
        if case .failure(let error) = result { return error.kind }
        return nil
    }

    @Test func exportedObjectsAnswerPendingCalls() throws {
        let bus = try Bus()
        #expect(bus.address.hasPrefix("unix:"))
        let server = try Endpoint(address: bus.address)
        let client = try Endpoint(address: bus.address)
        defer { client.close(); server.close() }
        let gatt = try GATTApplication(configuration: BlueZConfiguration(localName: "abcd1234").validated())
        let serverConnection = server.connection
        let exported = gatt.app
        let name = try #require(server.onLoop { (done: @escaping @Sendable (String) -> Void) in
            serverConnection.onMessage = { message in
                guard message.kind == .methodCall, let path = message.path, let member = message.member,
                      exported.isKnown(path) else { return false }
                if member == "Hang" { return true }
                let args = (try? message.arguments()) ?? DBusArguments([])
                switch exported.answerStandard(path: path, interface: message.interface, member: member, arguments: args) {
                case .reply(let values)?: serverConnection.send(try! message.makeReturn(values))
                case .error(let errorName, let text)?: serverConnection.send(try! message.makeError(name: errorName, text: text))
                case nil: return false
                }
                return true
            }
            done(serverConnection.uniqueName)
        })

        let managed = try DBusMessage.methodCall(destination: name, path: gatt.appPath,
                                                 interface: DBusObjectTree.objectManager, member: "GetManagedObjects")
        let reply = try #require(client.call(managed, timeout: 5)).get()
        #expect(try reply.arguments().values == [gatt.app.managedObjects()])

        let introspect = try DBusMessage.methodCall(destination: name, path: gatt.servicePath,
                                                    interface: DBusObjectTree.introspectable, member: "Introspect")
        let xml = try #require(client.call(introspect, timeout: 5)).get().arguments().at(0).string()
        #expect(xml.contains("<node name=\"char0\"/>"))

        let hang = try DBusMessage.methodCall(destination: name, path: gatt.appPath, interface: "org.example.T", member: "Hang")
        let late = try #require(client.call(hang, timeout: 0.2))
        #expect(kind(late) == .timedOut)

        let unknown = try DBusMessage.methodCall(destination: name, path: "/nowhere", interface: "org.example.T", member: "X")
        let refused = try #require(client.call(unknown, timeout: 5))
        guard case .failure(.remote(let errorName, _)) = refused else { Issue.record("expected an error reply"); return }
        #expect(errorName == "org.freedesktop.DBus.Error.UnknownMethod")

        let clientConnection = client.connection
        let cancelled = try #require(client.onLoop { (done: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void) in
            let token = clientConnection.call(hang, timeout: 30) { done($0) }
            clientConnection.cancel(token)
        })
        #expect(kind(cancelled) == .cancelled)
    }
}
