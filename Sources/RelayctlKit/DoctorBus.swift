import DBusKit
import Dispatch
import Synchronization

/// Blocking D-Bus calls for `relayctl doctor`: each call runs on a DBusKit event loop and is bounded
/// twice, by libdbus's own reply timeout and by a wait here, so a hung bus or service cannot hang the
/// doctor. Replies are decoded with ``DBusDecodeLimits``; a reply that fails, times out or does not
/// decode becomes the `noReply` fact of the check that asked, with its reason, on the doctor's line.
final class DoctorBus {
    /// Longest wait for one reply, seconds.
    static let callTimeout = 2.0
    private let loop: DBusEventLoop
    private let connection: DBusConnection

    private init(loop: DBusEventLoop) {
        self.loop = loop
        connection = DBusConnection(loop: loop)
    }

    /// Connects to the system bus; the reason when it cannot (in time).
    static func connect() -> Result<DoctorBus, DBusError> {
        let loop: DBusEventLoop
        do { loop = try DBusEventLoop() } catch { return .failure(error) }
        loop.start(name: "relayctl-dbus")
        let bus = DoctorBus(loop: loop)
        let opened: Result<Void, DBusError> = bus.wait("connecting to the system bus") { connection, done in
            do throws(DBusError) {
                try connection.openSystemBus()
                done(.success(()))
            } catch {
                done(.failure(error))
            }
        }
        return opened.map { bus }
    }

    /// Calls a method and returns its arguments, decoded within `limits` and bounded in time.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
              limits: DBusDecodeLimits = .small) -> Result<DBusArguments, DBusError> {
        let message: DBusMessage
        do throws(DBusError) {
            message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member,
                                                 arguments: arguments)
        } catch {
            return .failure(error)
        }
        let result: Result<DBusArguments, DBusError> = wait("\(interface).\(member)") { connection, done in
            connection.call(message, timeout: Self.callTimeout) { reply in
                switch reply {
                case .success(let message):
                    do throws(DBusError) { done(.success(try message.arguments(limits: limits))) } catch { done(.failure(error)) }
                case .failure(let error):
                    done(.failure(error))
                }
            }
        }
        // libdbus's own NoReply text is a paragraph of possible causes; the line needs the bound.
        return result.mapError { error in
            if case .timedOut = error { return .timedOut("no reply within \(Int(Self.callTimeout)) s") }
            return error
        }
    }

    /// Closes the connection and stops the loop (without waiting for a loop that hangs).
    func close() {
        loop.post { [connection] in connection.close() }
        loop.stop {}
    }

    /// Runs `job` on the loop thread and waits for its answer, at most a little longer than a call's timeout.
    private func wait<Value: Sendable>(_ what: String,
                                       _ job: @escaping @Sendable (DBusConnection, @escaping (Result<Value, DBusError>) -> Void) -> Void)
        -> Result<Value, DBusError> {
        let answer = Answer<Result<Value, DBusError>>()
        loop.post { [connection] in
            job(connection) { answer.set($0) }
        }
        return answer.wait(seconds: Self.callTimeout + 0.5) ?? .failure(.timedOut(what))
    }
}

/// One answer handed from the loop thread to the waiting thread; the first one set wins.
private final class Answer<Value: Sendable>: Sendable {
    private let slot = Mutex<Value?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    func set(_ value: Value) {
        let first = slot.withLock { stored in
            guard stored == nil else { return false }
            stored = value
            return true
        }
        if first { arrived.signal() }
    }

    func wait(seconds: Double) -> Value? {
        guard arrived.wait(timeout: .now() + seconds) == .success else { return nil }
        return slot.withLock { $0 }
    }
}
