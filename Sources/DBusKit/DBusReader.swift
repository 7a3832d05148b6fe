import CDBus
import Glibc

/// Decodes a libdbus message body into ``DBusValue``s within ``DBusDecodeLimits``.
struct DBusReader {
    let limits: DBusDecodeLimits
    private var remaining: Int

    init(limits: DBusDecodeLimits) {
        self.limits = limits
        self.remaining = limits.maxTotalValues
    }

    mutating func readBody(of message: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return try readSequence(&iter, depth: 0)
    }

    private mutating func readSequence(_ iter: inout DBusMessageIter, depth: Int) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != DBusTypeCode.invalid {
            values.append(try read(&iter, depth: depth))
            guard values.count <= limits.maxContainerElements else {
                throw .limitExceeded("more than \(limits.maxContainerElements) elements")
            }
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private mutating func spend() throws(DBusError) {
        remaining -= 1
        guard remaining >= 0 else { throw .limitExceeded("more than \(limits.maxTotalValues) values") }
    }

    private func basic<T>(_ iter: inout DBusMessageIter, _ zero: T) -> T {
        var value = zero
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, $0) }
        return value
    }

    private func text(_ iter: inout DBusMessageIter) throws(DBusError) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iter, $0) }
        guard let pointer else { throw .malformed("null string") }
        guard strnlen(pointer, limits.maxBytes + 1) <= limits.maxBytes else {
            throw .limitExceeded("string longer than \(limits.maxBytes) bytes")
        }
        return String(cString: pointer)
    }

    private func signature(of iter: inout DBusMessageIter) throws(DBusError) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { throw .outOfMemory }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }

    private mutating func read(_ iter: inout DBusMessageIter, depth: Int) throws(DBusError) -> DBusValue {
        try spend()
        guard depth <= limits.maxDepth else { throw .limitExceeded("nesting deeper than \(limits.maxDepth)") }
        let code = dbus_message_iter_get_arg_type(&iter)
        switch code {
        case DBusTypeCode.byte: return .byte(basic(&iter, UInt8(0)))
        case DBusTypeCode.boolean: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case DBusTypeCode.int16: return .int16(basic(&iter, Int16(0)))
        case DBusTypeCode.uint16: return .uint16(basic(&iter, UInt16(0)))
        case DBusTypeCode.int32: return .int32(basic(&iter, Int32(0)))
        case DBusTypeCode.uint32: return .uint32(basic(&iter, UInt32(0)))
        case DBusTypeCode.int64: return .int64(basic(&iter, Int64(0)))
        case DBusTypeCode.uint64: return .uint64(basic(&iter, UInt64(0)))
        case DBusTypeCode.double: return .double(basic(&iter, Double(0)))
        case DBusTypeCode.unixFD: return .unixFD(basic(&iter, Int32(-1)))
        case DBusTypeCode.string: return .string(try text(&iter))
        case DBusTypeCode.objectPath: return .objectPath(try text(&iter))
        case DBusTypeCode.signature: return .signature(try text(&iter))
        case DBusTypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            guard dbus_message_iter_get_arg_type(&sub) != DBusTypeCode.invalid else { throw .malformed("empty variant") }
            return .variant(try read(&sub, depth: depth + 1))
        case DBusTypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let fields = try readSequence(&sub, depth: depth + 1)
            guard !fields.isEmpty else { throw .malformed("empty structure") }
            return .structure(fields)
        case DBusTypeCode.array:
            return try readArray(&iter, depth: depth)
        default:
            throw .malformed("unsupported type code \(code)")
        }
    }

    private mutating func readArray(_ iter: inout DBusMessageIter, depth: Int) throws(DBusError) -> DBusValue {
        let full = try signature(of: &iter)
        let element = String(full.dropFirst())
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        if element == "y" {
            var pointer: UnsafeRawPointer? = nil
            var count: Int32 = 0
            withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_fixed_array(&sub, $0, &count) }
            guard count >= 0, Int(count) <= limits.maxBytes else {
                throw .limitExceeded("byte array longer than \(limits.maxBytes)")
            }
            guard count > 0, let pointer else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: Int(count))))
        }
        if element.hasPrefix("{") {
            let inner = element.dropFirst().dropLast()
            guard let keyChar = inner.first else { throw .malformed("dictionary signature \(full)") }
            var entries: [DBusDictEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == DBusTypeCode.dictEntry {
                try spend()
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let kv = try readSequence(&pair, depth: depth + 2)
                guard kv.count == 2 else { throw .malformed("dictionary entry with \(kv.count) fields") }
                entries.append(DBusDictEntry(key: kv[0], value: kv[1]))
                guard entries.count <= limits.maxContainerElements else {
                    throw .limitExceeded("dictionary with more than \(limits.maxContainerElements) entries")
                }
                dbus_message_iter_next(&sub)
            }
            return .dictionary(key: String(keyChar), value: String(inner.dropFirst()), entries)
        }
        let items = try readSequence(&sub, depth: depth + 1)
        return .array(element: element, items)
    }
}
