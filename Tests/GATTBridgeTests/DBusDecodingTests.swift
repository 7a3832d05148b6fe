import MeshTestSupport
import Testing
@testable import DBusKit
@testable import GATTBridge

/// Malformed or oversized input becomes a typed error, never a crash.
@Suite struct DBusDecodingTests {
    private func message(_ values: [DBusValue]) throws -> DBusMessage {
        try DBusMessage.signal(path: "/t", interface: "org.example.T", member: "S", arguments: values)
    }

    @Test(arguments: [[UInt8](), [0x6C, 1, 0, 1], [UInt8](repeating: 0xFF, count: 64),
                      Array("l\u{1}\u{0}\u{1}garbage-garbage-garbage".utf8)])
    func garbageWireBytesAreMalformed(_ bytes: [UInt8]) {
        #expect(thrownError(DBusError.self) { try DBusMessage.demarshal(bytes) }?.kind == .malformed)
    }

    @Test func truncatedMessageIsMalformed() throws {
        let wire = try message([.string("hello"), .bytes([1, 2, 3])]).marshal()
        #expect(thrownError(DBusError.self) { try DBusMessage.demarshal(Array(wire.dropLast(3))) }?.kind == .malformed)
    }

    @Test func oversizedByteArrayHitsTheLimit() throws {
        let limits = DBusDecodeLimits(maxDepth: 8, maxContainerElements: 16, maxTotalValues: 100, maxBytes: 8,
                                      maxMessageBytes: 4096)
        #expect(throws: DBusError.limitExceeded("byte array longer than 8")) {
            _ = try message([.bytes(Array(repeating: 1, count: 9))]).arguments(limits: limits)
        }
        #expect(throws: DBusError.limitExceeded("string longer than 8 bytes")) {
            _ = try message([.string("123456789")]).arguments(limits: limits)
        }
    }

    @Test func tooManyElementsHitTheLimit() throws {
        let limits = DBusDecodeLimits(maxDepth: 8, maxContainerElements: 3, maxTotalValues: 1000, maxBytes: 64,
                                      maxMessageBytes: 4096)
        #expect(thrownError(DBusError.self) { try message([.stringArray(["a", "b", "c", "d"])]).arguments(limits: limits) }?.kind == .limitExceeded)
        let total = DBusDecodeLimits(maxDepth: 8, maxContainerElements: 100, maxTotalValues: 5, maxBytes: 64,
                                     maxMessageBytes: 4096)
        #expect(thrownError(DBusError.self) { try message([.stringArray(["a", "b", "c", "d", "e", "f"])]).arguments(limits: total) }?.kind == .limitExceeded)
    }

    @Test func deepNestingHitsTheReaderLimit() throws {
        var value = DBusValue.byte(1)
        for _ in 0..<10 { value = .variant(value) }
        let limits = DBusDecodeLimits(maxDepth: 4, maxContainerElements: 16, maxTotalValues: 100, maxBytes: 64,
                                      maxMessageBytes: 4096)
        #expect(thrownError(DBusError.self) { try message([value]).arguments(limits: limits) }?.kind == .limitExceeded)
    }

    @Test func wrongReplyShapeIsATypeMismatch() throws {
        var cache = BlueZObjectCache()
        let values = try message([.stringArray(["not", "objects"])]).arguments()
        #expect(throws: DBusError.typeMismatch(expected: "a{o?}", actual: "as")) {
            try cache.load(managedObjects: try values.at(0))
        }
        let inner = DBusValue.dictionary(key: "o", value: "s", [DBusDictEntry(key: .objectPath("/x"), value: .string("y"))])
        #expect(throws: DBusError.typeMismatch(expected: "a{s?}", actual: "s")) { try cache.load(managedObjects: inner) }
        #expect(cache.objects.isEmpty)
    }

    @Test(arguments: [
        (DBusValue.string("x"), "q"), (.uint32(1), "q"), (.variant(.bytes([1])), "s"), (.int16(1), "b"),
    ])
    func accessorsRejectOtherTypes(_ value: DBusValue, _ wanted: String) {
        #expect(throws: DBusError.self) {
            switch wanted {
            case "q": _ = try value.uint16()
            case "s": _ = try value.string()
            default: _ = try value.bool()
            }
        }
    }

    @Test func errorRepliesMapToTypedErrors() throws {
        let unsent = try DBusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "M")
        #expect(throws: DBusError.invalidArgument("reply to a message without serial")) { try unsent.makeReturn() }
        let call = try DBusMessage.demarshal(try unsent.marshal())
        let noReply = try call.makeError(name: "org.freedesktop.DBus.Error.NoReply", text: "late")
        #expect(noReply.asError() == .timedOut("late"))
        let bluez = try call.makeError(name: "org.bluez.Error.NotPermitted", text: "no")
        #expect(bluez.asError() == .remote(name: "org.bluez.Error.NotPermitted", message: "no"))
        #expect(try call.makeReturn([.string("ok")]).asError() == nil)
        #expect(throws: DBusError.invalidArgument("error name not an error")) {
            _ = try call.makeError(name: "not an error", text: "")
        }
    }

    @Test func errorCountsGroupByKind() {
        var counts = DBusErrorCounts()
        counts.record(.timedOut("a"))
        counts.record(.timedOut("b"))
        counts.record(.remote(name: "x.y", message: ""))
        #expect(counts[.timedOut] == 2)
        #expect(counts[.remote] == 1)
        #expect(counts[.malformed] == 0)
        #expect(counts.total == 3)
    }
}
