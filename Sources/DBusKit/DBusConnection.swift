import CDBus
import Synchronization

/// Makes libdbus thread safe once per process; must run before any other libdbus call.
let dbusThreadsReady: Bool = dbus_threads_init_default() != 0

/// A private bus connection driven by a ``DBusEventLoop``.
///
/// Every method must be called on the loop thread. Replies arrive through completion closures,
/// also on the loop thread; incoming calls and signals go to ``onMessage``.
public final class DBusConnection: @unchecked Sendable {
    /// The loop that owns the connection.
    public let loop: DBusEventLoop
    private var raw: OpaquePointer?
    private var uniqueNameValue = ""
    private var onMessageHandler: ((DBusMessage) -> Bool)?
    private var onDisconnectHandler: (() -> Void)?
    private var onErrorHandler: ((DBusError) -> Void)?

    /// Our unique bus name (`:1.42`). Loop thread only.
    public private(set) var uniqueName: String {
        get { preconditionOnLoop(); return uniqueNameValue }
        set { preconditionOnLoop(); uniqueNameValue = newValue }
    }
    /// Receives method calls and signals; returns true when it handled the message. Loop thread only.
    public var onMessage: ((DBusMessage) -> Bool)? {
        get { preconditionOnLoop(); return onMessageHandler }
        set { preconditionOnLoop(); onMessageHandler = newValue }
    }
    /// Called once when the bus drops the connection. Loop thread only.
    public var onDisconnect: (() -> Void)? {
        get { preconditionOnLoop(); return onDisconnectHandler }
        set { preconditionOnLoop(); onDisconnectHandler = newValue }
    }
    /// Called for every failed exchange, so the owner can count it. Loop thread only.
    public var onError: ((DBusError) -> Void)? {
        get { preconditionOnLoop(); return onErrorHandler }
        set { preconditionOnLoop(); onErrorHandler = newValue }
    }

    private final class Pending {
        var call: OpaquePointer?
        var completion: ((Result<DBusMessage, DBusError>) -> Void)?
        let what: String
        init(call: OpaquePointer, what: String, completion: @escaping (Result<DBusMessage, DBusError>) -> Void) {
            self.call = call
            self.what = what
            self.completion = completion
        }
        func finish(_ result: Result<DBusMessage, DBusError>) {
            guard let completion else { return }
            self.completion = nil
            if let call { dbus_pending_call_unref(call) }
            call = nil
            completion(result)
        }
    }

    private var pendings: [UInt64: Pending] = [:]
    private var nextToken: UInt64 = 1

    /// Creates a connection for `loop`; nothing is opened until `open`.
    public init(loop: DBusEventLoop) { self.loop = loop }

    /// Stops the process when called off the loop thread: the connection's state is the loop's.
    func preconditionOnLoop(_ function: StaticString = #function) {
        precondition(loop.isCurrent, "DBusConnection.\(function) called off its loop thread")
    }

    /// Whether the connection is open. Loop thread only.
    public var isOpen: Bool {
        preconditionOnLoop()
        return raw.map { dbus_connection_get_is_connected($0) != 0 } ?? false
    }

    /// Connects to the system bus (or `DBUS_SYSTEM_BUS_ADDRESS`). Blocks for the bus handshake only.
    public func openSystemBus() throws(DBusError) {
        preconditionOnLoop()
        guard dbusThreadsReady else { throw .outOfMemory }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error) else {
            throw .connectionFailed(error.message.map { String(cString: $0) } ?? "no system bus")
        }
        try adopt(connection)
    }

    /// Connects to the bus at `address` (tests run a private dbus-daemon). Blocks for the handshake only.
    public func open(address: String) throws(DBusError) {
        preconditionOnLoop()
        guard dbusThreadsReady else { throw .outOfMemory }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw .connectionFailed(error.message.map { String(cString: $0) } ?? "cannot open \(address)")
        }
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw .connectionFailed(error.message.map { String(cString: $0) } ?? "Hello failed")
        }
        try adopt(connection)
    }

    private func adopt(_ connection: OpaquePointer) throws(DBusError) {
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard loop.adopt(connection) else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw .outOfMemory
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = dbus_connection_add_filter(connection, { _, message, data in
            guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let connection = Unmanaged<DBusConnection>.fromOpaque(data).takeUnretainedValue()
            return connection.filter(DBusMessage(retaining: message))
                ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, me, nil)
        raw = connection
        uniqueNameValue = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        loop.afterIO = { [weak self] in self?.dispatch() }
    }

    /// Closes the connection and fails every outstanding call with ``DBusError/disconnected``.
    public func close() {
        preconditionOnLoop()
        guard let connection = raw else { return }
        raw = nil
        loop.afterIO = nil
        for (_, pending) in pendings {
            if let call = pending.call { dbus_pending_call_cancel(call) }
            pending.finish(.failure(.disconnected))
        }
        pendings.removeAll()
        loop.release(connection)
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    private func dispatch() {
        guard let connection = raw else { return }
        var rounds = 0
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS, rounds < 1000 { rounds += 1 }
    }

    private func filter(_ message: DBusMessage) -> Bool {
        if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local",
           message.member == "Disconnected" {
            onErrorHandler?(.disconnected)
            let callback = onDisconnectHandler
            onDisconnectHandler = nil
            loop.later { [weak self] in
                self?.close()
                callback?()
            }
            return true
        }
        return onMessageHandler?(message) ?? false
    }

    /// Sends a message that expects no reply.
    public func send(_ message: DBusMessage) {
        preconditionOnLoop()
        guard let connection = raw else { onErrorHandler?(.disconnected); return }
        if dbus_connection_send(connection, message.raw, nil) == 0 { onErrorHandler?(.outOfMemory) }
    }

    /// Sends a method call; `completion` runs once with the reply, a typed error, or a timeout after `timeout` s.
    @discardableResult
    public func call(_ message: DBusMessage, timeout: Double,
              completion: @escaping (Result<DBusMessage, DBusError>) -> Void) -> UInt64 {
        preconditionOnLoop()
        let what = "\(message.interface ?? "").\(message.member ?? "")"
        let report: (Result<DBusMessage, DBusError>) -> Void = { [weak self] result in
            if case .failure(let error) = result { self?.onErrorHandler?(error) }
            completion(result)
        }
        guard let connection = raw else { report(.failure(.disconnected)); return 0 }
        var call: OpaquePointer? = nil
        let millis = Int32(clamping: Int(max(0.001, timeout) * 1000))
        guard dbus_connection_send_with_reply(connection, message.raw, &call, millis) != 0 else {
            report(.failure(.outOfMemory)); return 0
        }
        guard let call else { report(.failure(.disconnected)); return 0 }
        let token = nextToken
        nextToken += 1
        let pending = Pending(call: call, what: what) { [weak self] result in
            self?.pendings[token] = nil
            report(result)
        }
        pendings[token] = pending
        let box = Unmanaged.passRetained(PendingBox(self, token)).toOpaque()
        let armed = dbus_pending_call_set_notify(call, { call, data in
            guard let call, let data else { return }
            Unmanaged<PendingBox>.fromOpaque(data).takeUnretainedValue().complete(call)
        }, box, { data in
            guard let data else { return }
            Unmanaged<PendingBox>.fromOpaque(data).release()
        })
        if armed == 0 {
            dbus_pending_call_cancel(call)
            pending.finish(.failure(.outOfMemory))
        } else if dbus_pending_call_get_completed(call) != 0 {
            complete(token: token, call: call)
        }
        return token
    }

    /// Cancels an outstanding call; its completion runs with ``DBusError/cancelled(_:)``.
    public func cancel(_ token: UInt64) {
        preconditionOnLoop()
        guard let pending = pendings[token] else { return }
        if let call = pending.call { dbus_pending_call_cancel(call) }
        pending.finish(.failure(.cancelled(pending.what)))
    }

    fileprivate func complete(token: UInt64, call: OpaquePointer) {
        guard let pending = pendings[token] else { return }
        guard let reply = dbus_pending_call_steal_reply(call) else {
            pending.finish(.failure(.malformed("no reply message"))); return
        }
        let message = DBusMessage(adopting: reply)
        if let error = message.asError() { pending.finish(.failure(error)) } else { pending.finish(.success(message)) }
    }
}

/// Routes a libdbus pending-call notification back to its connection.
private final class PendingBox {
    weak var connection: DBusConnection?
    let token: UInt64
    init(_ connection: DBusConnection, _ token: UInt64) {
        self.connection = connection
        self.token = token
    }
    func complete(_ call: OpaquePointer) { connection?.complete(token: token, call: call) }
}
