/// One typed D-Bus value, as it travels in a message body.
///
/// Containers carry the signatures of their elements so that empty arrays and
/// dictionaries still marshal with the right type.
public indirect enum DBusValue: Equatable, Sendable {
    /// `y`: an unsigned byte.
    case byte(UInt8)
    /// `b`: a boolean.
    case boolean(Bool)
    /// `n`: a signed 16-bit integer.
    case int16(Int16)
    /// `q`: an unsigned 16-bit integer.
    case uint16(UInt16)
    /// `i`: a signed 32-bit integer.
    case int32(Int32)
    /// `u`: an unsigned 32-bit integer.
    case uint32(UInt32)
    /// `x`: a signed 64-bit integer.
    case int64(Int64)
    /// `t`: an unsigned 64-bit integer.
    case uint64(UInt64)
    /// `d`: an IEEE 754 double.
    case double(Double)
    /// `s`: a UTF-8 string without NUL characters.
    case string(String)
    /// `o`: an object path such as `/org/bluez/hci0`.
    case objectPath(String)
    /// `g`: a type signature.
    case signature(String)
    /// `h`: a Unix file descriptor; a decoded descriptor is a duplicate the receiver owns and must close.
    case unixFD(Int32)
    /// `ay`: a byte array (kept apart from `array` because it is by far the most common payload).
    case bytes([UInt8])
    /// `a<element>`: an array whose elements all have signature `element`.
    case array(element: String, [DBusValue])
    /// `a{<key><value>}`: a dictionary, entries kept in order.
    case dictionary(key: String, value: String, [DBusDictEntry])
    /// `(...)`: a structure with at least one field.
    case structure([DBusValue])
    /// `v`: a variant holding one value of any type.
    case variant(DBusValue)

    /// The value's complete D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// An `a{sv}` dictionary (the property and option maps BlueZ uses), keys sorted for stable output.
    public static func propertyMap(_ map: [String: DBusValue]) -> DBusValue {
        let entries = map.keys.sorted().map { DBusDictEntry(key: .string($0), value: .variant(map[$0]!)) }
        return .dictionary(key: "s", value: "v", entries)
    }

    /// An `as` array of strings.
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(element: "s", strings.map { .string($0) })
    }

    /// An `ao` array of object paths.
    public static func objectPathArray(_ paths: [String]) -> DBusValue {
        .array(element: "o", paths.map { .objectPath($0) })
    }

    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
}
