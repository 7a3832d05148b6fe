import DBusKit
import FuzzSupport
import Glibc

/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_dbus_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: dbusSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// Demarshals the input with libdbus (`dbus_message_demarshal`) and reads its header fields and
/// body with the bounded reader under both the standard and the small limits. A body that decodes
/// (and holds no file descriptor) is written into a new message, marshalled, demarshalled and read
/// again: the second marshalling must equal the first (bytes, so NaN doubles compare too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let message = try? DBusMessage.demarshal(FuzzInput(data, size).bytes) else { return 0 }
    _ = (message.kind, message.path, message.interface, message.member, message.sender, message.errorName,
         message.bodySignature, message.noReplyExpected, message.asError())
    _ = try? message.arguments(limits: .small)
    guard let values = try? message.arguments(limits: .standard).values else { return 0 }
    if values.contains(where: closeDescriptors) { return 0 }
    fuzzCheck(values.map(\.signature).joined() == message.bodySignature, "decoded values do not match the body signature")
    guard let first = remarshal(values) else { return 0 }
    guard let decoded = try? DBusMessage.demarshal(first), let again = try? decoded.arguments().values else {
        fuzzCheck(false, "our own marshalling of \(message.bodySignature) does not read back")
        return 0
    }
    fuzzCheck(remarshal(again) == first, "values of \(message.bodySignature) changed on a round trip")
    return 0
}

/// A signal carrying `values`, marshalled; nil when the writer refuses them.
private func remarshal(_ values: [DBusValue]) -> [UInt8]? {
    try? DBusMessage.signal(path: "/fuzz", interface: "org.meshnode.Fuzz", member: "Values", arguments: values).marshal()
}

/// Closes every descriptor a decoded value owns; true when there was any `h` value.
private func closeDescriptors(_ value: DBusValue) -> Bool {
    switch value {
    case .unixFD(let fd):
        if fd >= 0 { close(fd) }
        return true
    case .array(_, let elements), .structure(let elements):
        return elements.map(closeDescriptors).contains(true)
    case .dictionary(_, _, let entries):
        return entries.map { closeDescriptors($0.key) || closeDescriptors($0.value) }.contains(true)
    case .variant(let inner):
        return closeDescriptors(inner)
    default:
        return false
    }
}

/// Messages shaped like what BlueZ sends us: a WriteValue call, a PropertiesChanged signal, an
/// InterfacesAdded signal, an error reply; plus one with every basic type.
func dbusSeeds() -> [(name: String, bytes: [UInt8])] {
    let options = DBusValue.propertyMap(["offset": .variant(.uint16(0)), "device": .variant(.objectPath("/org/bluez/hci0/dev_00"))])
    let seeds: [(String, () throws(DBusError) -> DBusMessage)] = [
        ("write-value", { () throws(DBusError) in
            try .methodCall(destination: ":1.7", path: "/org/meshnode/service0/char0", interface: "org.bluez.GattCharacteristic1",
                            member: "WriteValue", arguments: [.bytes([2, 0x1a, 0x2b, 0x3c, 0x4d, 0, 0, 0, 1, 42]), options])
        }),
        ("properties-changed", { () throws(DBusError) in
            try .signal(path: "/org/bluez/hci0/dev_00", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                        arguments: [.string("org.bluez.Device1"), .propertyMap(["Connected": .variant(.boolean(true))]),
                                    .stringArray(["RSSI"])])
        }),
        ("interfaces-added", { () throws(DBusError) in
            try .signal(path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
                        arguments: [.objectPath("/org/bluez/hci0/dev_00"),
                                    .dictionary(key: "s", value: "a{sv}", [DBusDictEntry(key: .string("org.bluez.Device1"), value: .propertyMap([
                                        "UUIDs": .variant(.stringArray(["0000fe00-0000-1000-8000-00805f9b34fb"])),
                                        "RSSI": .variant(.int16(-60)), "ManufacturerData": .variant(.dictionary(key: "q", value: "v", [])),
                                    ]))])])
        }),
        ("basic-types", { () throws(DBusError) in
            try .signal(path: "/a", interface: "a.b", member: "C", arguments: [
                .byte(1), .boolean(false), .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6), .uint64(7),
                .double(0.5), .string("s"), .objectPath("/o"), .signature("a{sv}"),
                .structure([.string("x"), .array(element: "i", [.int32(1), .int32(2)])]), .variant(.variant(.byte(9))),
            ])
        }),
    ]
    var out: [(name: String, bytes: [UInt8])] = []
    for (name, make) in seeds {
        do { out.append((name, try make().marshal())) } catch { print("seed \(name): \(error)") }
    }
    if let call = try? seeds[0].1(), let error = try? call.makeError(name: "org.bluez.Error.Failed", text: "no"),
       let bytes = try? error.marshal() {
        out.append(("error-reply", bytes))
    }
    return out
}
