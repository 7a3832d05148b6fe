import CDBus

/// An owned reference to one libdbus message.
///
/// Messages are built completely before they are shared and never mutated afterwards;
/// libdbus reference counting is thread safe once `dbus_threads_init_default` ran.
public final class DBusMessage: @unchecked Sendable {
    /// The libdbus message; this object owns one reference.
    let raw: OpaquePointer

    /// The four message types.
    public enum Kind: Sendable, Equatable {
        /// A method call.
        case methodCall
        /// A successful reply.
        case methodReturn
        /// An error reply.
        case error
        /// A signal.
        case signal
        /// Anything else.
        case invalid
    }

    /// Takes over one reference to `raw`.
    init(adopting raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to `raw`.
    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    /// A method call with arguments; names and values are validated first.
    public static func methodCall(destination: String?, path: String, interface: String?, member: String,
                                  arguments: [DBusValue] = []) throws(DBusError) -> DBusMessage {
        if let destination, !DBusSyntax.isValidBusName(destination) { throw .invalidArgument("bus name \(destination)") }
        guard DBusSyntax.isValidPath(path) else { throw .invalidArgument("path \(path)") }
        if let interface, !DBusSyntax.isValidInterface(interface) { throw .invalidArgument("interface \(interface)") }
        guard DBusSyntax.isValidMember(member) else { throw .invalidArgument("member \(member)") }
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else { throw .outOfMemory }
        let message = DBusMessage(adopting: raw)
        try DBusWriter.append(arguments, to: raw)
        return message
    }

    /// A signal with arguments.
    public static func signal(path: String, interface: String, member: String,
                              arguments: [DBusValue] = []) throws(DBusError) -> DBusMessage {
        guard DBusSyntax.isValidPath(path) else { throw .invalidArgument("path \(path)") }
        guard DBusSyntax.isValidInterface(interface) else { throw .invalidArgument("interface \(interface)") }
        guard DBusSyntax.isValidMember(member) else { throw .invalidArgument("member \(member)") }
        guard let raw = dbus_message_new_signal(path, interface, member) else { throw .outOfMemory }
        let message = DBusMessage(adopting: raw)
        try DBusWriter.append(arguments, to: raw)
        return message
    }

    /// A successful reply to this call (which must carry a serial, as every received call does).
    public func makeReturn(_ arguments: [DBusValue] = []) throws(DBusError) -> DBusMessage {
        guard dbus_message_get_serial(raw) != 0 else { throw .invalidArgument("reply to a message without serial") }
        guard let reply = dbus_message_new_method_return(raw) else { throw .outOfMemory }
        let message = DBusMessage(adopting: reply)
        try DBusWriter.append(arguments, to: reply)
        return message
    }

    /// An error reply to this call.
    public func makeError(name: String, text: String) throws(DBusError) -> DBusMessage {
        guard DBusSyntax.isValidErrorName(name) else { throw .invalidArgument("error name \(name)") }
        guard dbus_message_get_serial(raw) != 0 else { throw .invalidArgument("reply to a message without serial") }
        let safe = DBusSyntax.isSendableString(text) ? text : "error"
        guard let reply = dbus_message_new_error(raw, name, safe) else { throw .outOfMemory }
        return DBusMessage(adopting: reply)
    }

    /// The message type.
    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case 1: .methodCall
        case 2: .methodReturn
        case 3: .error
        case 4: .signal
        default: .invalid
        }
    }

    /// The object path, when present.
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    /// The interface, when present.
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    /// The member (method or signal name), when present.
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// The sender's unique bus name, when present.
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    /// The error name of an error reply.
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    /// The body's signature.
    public var bodySignature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    /// Whether the caller asked for no reply.
    public var noReplyExpected: Bool { dbus_message_get_no_reply(raw) != 0 }

    /// Decodes the body within `limits`.
    public func arguments(limits: DBusDecodeLimits = .standard) throws(DBusError) -> DBusArguments {
        var reader = DBusReader(limits: limits)
        return DBusArguments(try reader.readBody(of: raw))
    }

    /// For an error reply, the typed error it carries; nil for other messages.
    public func asError() -> DBusError? {
        guard kind == .error else { return nil }
        let name = errorName ?? "org.freedesktop.DBus.Error.Failed"
        let text = (try? arguments(limits: .small).at(0).string()) ?? ""
        return DBusError.fromReply(name: name, message: text)
    }

    /// The message in wire format (used by tests and for size checks); a message that was never sent
    /// gets serial 1 first, because the wire format requires one.
    public func marshal() throws(DBusError) -> [UInt8] {
        if dbus_message_get_serial(raw) == 0 { dbus_message_set_serial(raw, 1) }
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else { throw .outOfMemory }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// Parses a message from wire format; bad bytes become ``DBusError/malformed(_:)``.
    public static func demarshal(_ bytes: [UInt8]) throws(DBusError) -> DBusMessage {
        guard bytes.count >= 16, bytes.count <= DBusDecodeLimits.standard.maxMessageBytes else {
            throw .malformed("wire length \(bytes.count)")
        }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                dbus_message_demarshal($0, Int32(bytes.count), &error)
            }
        }
        guard let raw else {
            let text = error.message.map { String(cString: $0) } ?? "unparsable"
            throw .malformed(text)
        }
        return DBusMessage(adopting: raw)
    }
}
