/// Typed, throwing accessors used to decode replies and arguments.
///
/// Each accessor looks through variants and throws ``DBusError/typeMismatch(expected:actual:)``
/// when the value has another type, so a malformed reply never becomes a crash.
extension DBusValue {
    private func mismatch(_ expected: String) -> DBusError {
        .typeMismatch(expected: expected, actual: unwrapped.signature)
    }

    /// The string inside an `s` value.
    public func string() throws(DBusError) -> String {
        guard case .string(let value) = unwrapped else { throw mismatch("s") }
        return value
    }

    /// The path inside an `o` value.
    public func objectPath() throws(DBusError) -> String {
        guard case .objectPath(let value) = unwrapped else { throw mismatch("o") }
        return value
    }

    /// The boolean inside a `b` value.
    public func bool() throws(DBusError) -> Bool {
        guard case .boolean(let value) = unwrapped else { throw mismatch("b") }
        return value
    }

    /// The number inside a `q` value.
    public func uint16() throws(DBusError) -> UInt16 {
        guard case .uint16(let value) = unwrapped else { throw mismatch("q") }
        return value
    }

    /// The number inside an `n` value.
    public func int16() throws(DBusError) -> Int16 {
        guard case .int16(let value) = unwrapped else { throw mismatch("n") }
        return value
    }

    /// The number inside a `u` value.
    public func uint32() throws(DBusError) -> UInt32 {
        guard case .uint32(let value) = unwrapped else { throw mismatch("u") }
        return value
    }

    /// The bytes inside an `ay` value.
    public func bytes() throws(DBusError) -> [UInt8] {
        guard case .bytes(let value) = unwrapped else { throw mismatch("ay") }
        return value
    }

    /// The strings inside an `as` value.
    public func stringArray() throws(DBusError) -> [String] {
        guard case .array("s", let items) = unwrapped else { throw mismatch("as") }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for item in items { out.append(try item.string()) }
        return out
    }

    /// The entries of an `a{s...}` dictionary keyed by string.
    public func stringKeyed() throws(DBusError) -> [String: DBusValue] {
        guard case .dictionary("s", _, let entries) = unwrapped else { throw mismatch("a{s?}") }
        var out: [String: DBusValue] = [:]
        for entry in entries { out[try entry.key.string()] = entry.value.unwrapped }
        return out
    }

    /// The entries of an `a{o...}` dictionary keyed by object path.
    public func pathKeyed() throws(DBusError) -> [String: DBusValue] {
        guard case .dictionary("o", _, let entries) = unwrapped else { throw mismatch("a{o?}") }
        var out: [String: DBusValue] = [:]
        for entry in entries { out[try entry.key.objectPath()] = entry.value.unwrapped }
        return out
    }

    /// An `a{sa{sv}}` interface map: interface name to its properties.
    public func interfaceMap() throws(DBusError) -> [String: [String: DBusValue]] {
        var out: [String: [String: DBusValue]] = [:]
        for (name, props) in try stringKeyed() { out[name] = try props.stringKeyed() }
        return out
    }
}
