import Foundation
import Testing
@testable import DBusKit
@testable import GATTBridge

/// Round trips through libdbus: build a message, marshal it to wire bytes, parse it back, decode.
@Suite struct DBusMarshallingTests {
    static let samples: [DBusValue] = [
        .byte(0xFE), .boolean(true), .boolean(false), .int16(-12_345), .uint16(65_000), .int32(-7),
        .uint32(4_000_000_000), .int64(Int64.min), .uint64(UInt64.max), .double(-2.5),
        .string(""), .string("héllo ✓ 日本"), .objectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"),
        .signature("a{sv}"), .bytes([]), .bytes(Array(0...255)),
        .array(element: "s", []), .stringArray(["a", "b"]), .objectPathArray(["/a", "/b/c"]),
        .array(element: "ay", [.bytes([1, 2]), .bytes([])]),
        .dictionary(key: "s", value: "v", []),
        .propertyMap(["UUIDs": .stringArray(["x"]), "Transport": .string("le"), "RSSI": .int16(-60)]),
        .dictionary(key: "q", value: "ay", [DBusDictEntry(key: .uint16(0x004C), value: .bytes([1, 2, 3]))]),
        .structure([.string("x"), .uint32(1), .variant(.boolean(true))]),
        .variant(.variant(.string("nested"))),
        .variant(.structure([.objectPath("/"), .bytes([9])])),
    ]

    @Test(arguments: samples)
    func valueSurvivesWireRoundTrip(_ value: DBusValue) throws {
        let message = try DBusMessage.methodCall(destination: "org.bluez", path: "/org/bluez/hci0",
                                                 interface: "org.example.Test", member: "Echo", arguments: [value])
        #expect(message.bodySignature == value.signature)
        let parsed = try DBusMessage.demarshal(try message.marshal())
        #expect(try parsed.arguments().values == [value])
        #expect(parsed.member == "Echo")
        #expect(parsed.path == "/org/bluez/hci0")
    }

    @Test func managedObjectsShapeRoundTrips() throws {
        let device = DBusValue.dictionary(key: "s", value: "a{sv}", [
            DBusDictEntry(key: .string("org.bluez.Device1"), value: .propertyMap([
                "Address": .string("AA:BB:CC:DD:EE:FF"), "Connected": .boolean(true),
            ])),
        ])
        let objects = DBusValue.dictionary(key: "o", value: "a{sa{sv}}", [
            DBusDictEntry(key: .objectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"), value: device),
        ])
        let message = try DBusMessage.signal(path: "/", interface: "org.example.Test", member: "Tree", arguments: [objects])
        let values = try DBusMessage.demarshal(try message.marshal()).arguments().values
        #expect(values == [objects])
        #expect(values[0].signature == "a{oa{sa{sv}}}")
    }

    @Test func fileDescriptorIsDuplicatedOnDecode() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let message = try DBusMessage.methodCall(destination: nil, path: "/x", interface: nil, member: "Fd",
                                                 arguments: [.unixFD(fds[0])])
        #expect(message.bodySignature == "h")
        guard case .unixFD(let received) = try message.arguments().values.first else {
            Issue.record("no descriptor decoded")
            return
        }
        #expect(received >= 0)
        #expect(received != fds[0])
        close(received)
    }

    @Test func emptyBodyDecodesToNoArguments() throws {
        let message = try DBusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "Ping")
        #expect(try message.arguments().values.isEmpty)
        #expect(throws: DBusError.malformed("argument 0 missing (have 0)")) { try message.arguments().at(0) }
    }
}

/// Values libdbus would abort on are refused before they reach it.
@Suite struct DBusWriterValidationTests {
    static let refused: [(DBusValue, DBusError.Kind)] = [
        (.objectPath("not/a/path"), .invalidArgument),
        (.objectPath("/trailing/"), .invalidArgument),
        (.string("nul\u{0}inside"), .invalidArgument),
        (.signature("a{"), .invalidArgument),
        (.unixFD(-1), .invalidArgument),
        (.array(element: "s", [.uint32(1)]), .typeMismatch),
        (.array(element: "", []), .invalidArgument),
        (.dictionary(key: "v", value: "s", []), .invalidArgument),
        (.dictionary(key: "s", value: "s", [DBusDictEntry(key: .string("k"), value: .uint16(1))]), .typeMismatch),
        (.structure([]), .invalidArgument),
    ]

    @Test(arguments: refused)
    func invalidValueIsRefused(_ value: DBusValue, _ kind: DBusError.Kind) {
        do {
            _ = try DBusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "M", arguments: [value])
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.kind == kind)
        }
    }

    @Test func tooDeepNestingIsRefused() {
        var value = DBusValue.byte(1)
        for _ in 0..<40 { value = .variant(value) }
        #expect(throws: DBusError.limitExceeded("nesting deeper than 32")) {
            _ = try DBusMessage.signal(path: "/", interface: "a.b", member: "C", arguments: [value])
        }
    }

    @Test(arguments: [("bad name", "/", "M"), ("a.b", "no-slash", "M"), ("a.b", "/", "1bad")])
    func invalidNamesAreRefused(_ interface: String, _ path: String, _ member: String) {
        #expect(throws: DBusError.self) {
            _ = try DBusMessage.methodCall(destination: nil, path: path, interface: interface, member: member)
        }
    }
}
