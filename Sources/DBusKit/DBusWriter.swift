import CDBus

/// Appends ``DBusValue``s to a libdbus message, validating the whole tree first.
enum DBusWriter {
    /// Deepest container nesting we send (the D-Bus limit is 64 in total).
    static let maxDepth = 32

    /// Validates then appends `values` to the end of `message`'s body.
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for value in values { try validate(value, depth: 0) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values { try write(value, into: &iter) }
    }

    /// Checks everything libdbus would otherwise abort on.
    static func validate(_ value: DBusValue, depth: Int) throws(DBusError) {
        guard depth <= maxDepth else { throw .limitExceeded("nesting deeper than \(maxDepth)") }
        switch value {
        case .string(let s):
            guard DBusSyntax.isSendableString(s) else { throw .invalidArgument("string with NUL") }
        case .objectPath(let p):
            guard DBusSyntax.isValidPath(p) else { throw .invalidArgument("object path \(p)") }
        case .signature(let g):
            guard g.utf8.count <= 255, g.isEmpty || DBusSyntax.isValidSignature(g) else {
                throw .invalidArgument("signature \(g)")
            }
        case .unixFD(let fd):
            guard fd >= 0 else { throw .invalidArgument("file descriptor \(fd)") }
        case .array(let element, let items):
            guard DBusSyntax.isSingleCompleteType(element), !element.hasPrefix("{") else {
                throw .invalidArgument("array element signature \(element)")
            }
            for item in items {
                guard item.signature == element else { throw .typeMismatch(expected: element, actual: item.signature) }
                try validate(item, depth: depth + 1)
            }
        case .dictionary(let key, let valueSignature, let entries):
            guard key.count == 1, "ybnqiuxtdsogh".contains(key) else { throw .invalidArgument("dictionary key \(key)") }
            guard DBusSyntax.isSingleCompleteType(valueSignature) else {
                throw .invalidArgument("dictionary value signature \(valueSignature)")
            }
            for entry in entries {
                guard entry.key.signature == key else { throw .typeMismatch(expected: key, actual: entry.key.signature) }
                guard entry.value.signature == valueSignature else {
                    throw .typeMismatch(expected: valueSignature, actual: entry.value.signature)
                }
                try validate(entry.key, depth: depth + 1)
                try validate(entry.value, depth: depth + 1)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgument("empty structure") }
            for field in fields { try validate(field, depth: depth + 1) }
        case .variant(let inner):
            try validate(inner, depth: depth + 1)
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .bytes:
            break
        }
    }

    private static func basic<T>(_ value: T, _ code: Int32, _ iter: inout DBusMessageIter) throws(DBusError) {
        var copy = value
        let ok = withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iter, code, $0) }
        guard ok != 0 else { throw .outOfMemory }
    }

    private static func text(_ value: String, _ code: Int32, _ iter: inout DBusMessageIter) throws(DBusError) {
        let ok = value.withCString { cString -> dbus_bool_t in
            var pointer: UnsafePointer<CChar>? = cString
            return withUnsafePointer(to: &pointer) { dbus_message_iter_append_basic(&iter, code, $0) }
        }
        guard ok != 0 else { throw .outOfMemory }
    }

    private static func container(_ code: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
                                  _ body: (inout DBusMessageIter) throws(DBusError) -> Void) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, code, $0, &sub) }
        } else {
            opened = dbus_message_iter_open_container(&iter, code, nil, &sub)
        }
        guard opened != 0 else { throw .outOfMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container_if_open(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw .outOfMemory }
    }

    private static func write(_ value: DBusValue, into iter: inout DBusMessageIter) throws(DBusError) {
        switch value {
        case .byte(let v): try basic(v, DBusTypeCode.byte, &iter)
        case .boolean(let v): try basic(dbus_bool_t(v ? 1 : 0), DBusTypeCode.boolean, &iter)
        case .int16(let v): try basic(v, DBusTypeCode.int16, &iter)
        case .uint16(let v): try basic(v, DBusTypeCode.uint16, &iter)
        case .int32(let v): try basic(v, DBusTypeCode.int32, &iter)
        case .uint32(let v): try basic(v, DBusTypeCode.uint32, &iter)
        case .int64(let v): try basic(v, DBusTypeCode.int64, &iter)
        case .uint64(let v): try basic(v, DBusTypeCode.uint64, &iter)
        case .double(let v): try basic(v, DBusTypeCode.double, &iter)
        case .unixFD(let v): try basic(v, DBusTypeCode.unixFD, &iter)
        case .string(let v): try text(v, DBusTypeCode.string, &iter)
        case .objectPath(let v): try text(v, DBusTypeCode.objectPath, &iter)
        case .signature(let v): try text(v, DBusTypeCode.signature, &iter)
        case .bytes(let bytes):
            try container(DBusTypeCode.array, "y", &iter) { (sub: inout DBusMessageIter) throws(DBusError) in
                let ok = bytes.withUnsafeBufferPointer { buffer -> dbus_bool_t in
                    var pointer = buffer.baseAddress
                    return withUnsafePointer(to: &pointer) {
                        dbus_message_iter_append_fixed_array(&sub, DBusTypeCode.byte, $0, Int32(bytes.count))
                    }
                }
                guard ok != 0 else { throw .outOfMemory }
            }
        case .array(let element, let items):
            try container(DBusTypeCode.array, element, &iter) { (sub: inout DBusMessageIter) throws(DBusError) in
                for item in items { try write(item, into: &sub) }
            }
        case .dictionary(let key, let valueSignature, let entries):
            try container(DBusTypeCode.array, "{" + key + valueSignature + "}", &iter) {
                (sub: inout DBusMessageIter) throws(DBusError) in
                for entry in entries {
                    try container(DBusTypeCode.dictEntry, nil, &sub) { (pair: inout DBusMessageIter) throws(DBusError) in
                        try write(entry.key, into: &pair)
                        try write(entry.value, into: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container(DBusTypeCode.structure, nil, &iter) { (sub: inout DBusMessageIter) throws(DBusError) in
                for field in fields { try write(field, into: &sub) }
            }
        case .variant(let inner):
            try container(DBusTypeCode.variant, inner.signature, &iter) { (sub: inout DBusMessageIter) throws(DBusError) in
                try write(inner, into: &sub)
            }
        }
    }
}
