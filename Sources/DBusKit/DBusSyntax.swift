import CDBus

/// Syntax checks done in Swift before anything reaches libdbus, whose own checks abort the process.
public enum DBusSyntax {
    /// Whether `path` is a valid object path.
    public static func isValidPath(_ path: String) -> Bool {
        check(path) { dbus_validate_path($0, nil) }
    }

    /// Whether `name` is a valid interface name.
    public static func isValidInterface(_ name: String) -> Bool {
        check(name) { dbus_validate_interface($0, nil) }
    }

    /// Whether `name` is a valid member (method or signal) name.
    public static func isValidMember(_ name: String) -> Bool {
        check(name) { dbus_validate_member($0, nil) }
    }

    /// Whether `name` is a valid error name.
    public static func isValidErrorName(_ name: String) -> Bool {
        check(name) { dbus_validate_error_name($0, nil) }
    }

    /// Whether `name` is a valid bus name (unique or well-known).
    public static func isValidBusName(_ name: String) -> Bool {
        check(name) { dbus_validate_bus_name($0, nil) }
    }

    /// Whether `signature` is a valid signature made of exactly one complete type.
    public static func isSingleCompleteType(_ signature: String) -> Bool {
        check(signature) { dbus_signature_validate_single($0, nil) }
    }

    /// Whether `signature` is a valid signature (any number of complete types).
    public static func isValidSignature(_ signature: String) -> Bool {
        check(signature) { dbus_signature_validate($0, nil) }
    }

    /// Whether a string can be sent as `s`: no NUL characters (Swift strings are already UTF-8).
    public static func isSendableString(_ string: String) -> Bool {
        !string.utf8.contains(0)
    }

    private static func check(_ text: String, _ body: (UnsafePointer<CChar>) -> dbus_bool_t) -> Bool {
        guard isSendableString(text) else { return false }
        return text.withCString { body($0) } != 0
    }
}
