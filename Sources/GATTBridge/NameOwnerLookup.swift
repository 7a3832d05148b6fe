import DBusKit

/// What a `GetNameOwner("org.bluez")` reply says, validated: an owner, no owner, or a failed call.
enum NameOwnerLookup: Equatable, Sendable {
    /// bluetoothd holds the name under this unique name (`:1.7`).
    case owner(String)
    /// Nobody holds the name: bluetoothd is not running (yet).
    case noOwner
    /// The call failed or the reply is not a unique name; the owner is unknown.
    case failed(DBusError)

    /// The bus's error for a name without an owner.
    static let noOwnerError = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// The longest bus name the D-Bus specification allows.
    static let maxNameLength = 255

    /// Classifies a reply: only a single string argument that is a unique name (`:` first,
    /// at most 255 bytes) is an owner.
    init(_ reply: Result<DBusArguments, DBusError>) {
        switch reply {
        case .failure(.remote(name: Self.noOwnerError, message: _)):
            self = .noOwner
        case .failure(let error):
            self = .failed(error)
        case .success(let arguments):
            guard arguments.values.count == 1, case .string(let name) = arguments.values[0] else {
                self = .failed(.malformed("GetNameOwner reply is not one string"))
                return
            }
            guard name.hasPrefix(":"), name.utf8.count > 1, name.utf8.count <= Self.maxNameLength else {
                self = .failed(.malformed("GetNameOwner reply is not a unique name"))
                return
            }
            self = .owner(name)
        }
    }
}
