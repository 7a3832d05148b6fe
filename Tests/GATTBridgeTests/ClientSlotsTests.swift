import DBusKit
import MeshLink
import Testing
@testable import GATTBridge

/// Client slots: one notify characteristic per client without a GATT server, claimed by the first
/// device that writes to it (docs/BLUEZ.md, "Client slots").
@Suite struct ClientSlotsTests {
    static let a = "/org/bluez/hci0/dev_AA", b = "/org/bluez/hci0/dev_BB", c = "/org/bluez/hci0/dev_CC"

    struct Claim: CustomTestStringConvertible, Sendable {
        let slot: Int
        let device: String
        let at: Double
        let expected: SlotClaim
        let why: String
        var testDescription: String { why }
    }

    /// Claims in order on two slots; each case runs the claims before it first.
    static let sequence: [Claim] = [
        Claim(slot: 0, device: a, at: 0, expected: .granted, why: "a free slot goes to the first writer"),
        Claim(slot: 0, device: a, at: 1, expected: .held, why: "the holder may write to it again"),
        Claim(slot: 0, device: b, at: 2, expected: .taken(exhausted: false), why: "another device is refused"),
        Claim(slot: 1, device: a, at: 3, expected: .holdsAnother(0), why: "one slot per device"),
        Claim(slot: 1, device: b, at: 4, expected: .granted, why: "the second device takes the second slot"),
        Claim(slot: 1, device: c, at: 5, expected: .taken(exhausted: true), why: "every slot held: exhausted"),
        Claim(slot: 2, device: c, at: 6, expected: .noSuchSlot, why: "no slot beyond the count"),
        Claim(slot: -1, device: c, at: 6, expected: .noSuchSlot, why: "no negative slot"),
        Claim(slot: 0, device: c, at: 17, expected: .granted,
              why: "an unlinked claim older than 15 s expires and the slot is free again"),
    ]

    @Test("Claims in sequence", arguments: sequence.indices)
    func claims(_ index: Int) {
        var slots = ClientSlots(count: 2)
        for earlier in Self.sequence[..<index] { _ = slots.claim(slot: earlier.slot, device: earlier.device, now: earlier.at) }
        let item = Self.sequence[index]
        #expect(slots.claim(slot: item.slot, device: item.device, now: item.at).0 == item.expected, "\(item.why)")
    }

    @Test func linkedClaimsNeverExpire() {
        var slots = ClientSlots(count: 2)
        #expect(slots.claim(slot: 0, device: Self.a, now: 0) == (.granted, 0))
        #expect(slots.claim(slot: 1, device: Self.b, now: 0) == (.granted, 0))
        slots.linked(device: Self.a)
        let (claim, expired) = slots.claim(slot: 0, device: Self.c, now: 1000)
        #expect(claim == .taken(exhausted: false))
        #expect(expired == 1, "b never linked and expired; a is linked and keeps its slot")
        #expect(slots.byDevice == [Self.a: 0])
    }

    @Test func releaseFreesTheSlot() {
        var slots = ClientSlots(count: 4)
        _ = slots.claim(slot: 2, device: Self.a, now: 0)
        _ = slots.claim(slot: 3, device: "/org/bluez/hci1/dev_AA", now: 0)
        #expect(slots.free == 2)
        #expect(slots.release(device: Self.b) == nil)
        #expect(slots.release(device: Self.a) == 2)
        #expect(slots.claim(slot: 2, device: Self.b, now: 1).0 == .granted)
        #expect(slots.releaseAll(under: "/org/bluez/hci0") == 1)
        #expect(slots.byDevice == ["/org/bluez/hci1/dev_AA": 3])
    }

    @Test(arguments: [(-3, 0), (0, 0), (4, 4), (16, 16), (17, 16)])
    func countIsBounded(_ asked: Int, _ count: Int) {
        #expect(ClientSlots(count: asked).count == count)
    }

    @Test(arguments: [(0, "8f2c0100-5e1a-4c7b-9d3e-6d657368ee01"), (15, "8f2c010f-5e1a-4c7b-9d3e-6d657368ee01")])
    func uuids(_ slot: Int, _ uuid: String) {
        #expect(ClientSlots.uuid(base: BlueZConfiguration.defaultSlotBaseUUID, slot: slot) == uuid)
    }

    @Test func uuidOverflowIsRefused() throws {
        #expect(ClientSlots.uuid(base: "ffffffff-5e1a-4c7b-9d3e-6d657368ee01", slot: 1) == nil)
        #expect(throws: BlueZConfigurationError.self) {
            try BlueZConfiguration(localName: "abcd1234", slotBaseUUID: "fffffffe-5e1a-4c7b-9d3e-6d657368ee01").validated()
        }
        #expect(throws: BlueZConfigurationError.duplicateUUIDs) {
            try BlueZConfiguration(localName: "abcd1234", slotBaseUUID: "8f2c0000-5e1a-4c7b-9d3e-6d657368ee01").validated()
        }
        #expect(throws: BlueZConfigurationError.badLimit(field: "clientSlots", value: 17)) {
            try BlueZConfiguration(localName: "abcd1234", clientSlots: 17).validated()
        }
    }

    @Test func slotCharacteristicsAreExportedAndParsed() throws {
        let gatt = try GATTApplication(configuration: BlueZConfiguration(localName: "abcd1234").validated())
        #expect(gatt.slotPaths == (2...5).map { "/org/meshnode/hci0/app/service0/char\($0)" })
        #expect(gatt.app.property(path: gatt.slotPaths[3], interface: BlueZ.characteristic, name: "UUID")
                == .string("8f2c0103-5e1a-4c7b-9d3e-6d657368ee01"))
        #expect(gatt.app.property(path: gatt.slotPaths[0], interface: BlueZ.characteristic, name: "Flags")
                == .stringArray(["write", "notify"]))
        let options = DBusValue.propertyMap(["device": .objectPath(Self.a), "mtu": .uint16(185)])
        #expect(try gatt.request(path: gatt.slotPaths[1], interface: nil, member: "WriteValue",
                                 arguments: DBusArguments([.bytes([]), options]))?.get()
                == .slotWrite(1, [], GATTOptions(device: Self.a, mtu: 185, offset: 0)))
        #expect(try gatt.request(path: gatt.slotPaths[2], interface: BlueZ.characteristic, member: "StartNotify",
                                 arguments: DBusArguments([]))?.get() == .slotNotify(2, true))
        #expect(try gatt.request(path: gatt.slotPaths[2], interface: nil, member: "StopNotify",
                                 arguments: DBusArguments([]))?.get() == .slotNotify(2, false))
        let none = try GATTApplication(configuration: BlueZConfiguration(localName: "abcd1234", clientSlots: 0).validated())
        #expect(none.slotPaths.isEmpty)
    }

    private func open(_ book: inout LinkBook, _ device: String) -> LinkRecord? {
        book.open(devicePath: device, address: device, role: .peripheral, attMTU: 185, peer: .noMeshService)
    }

    @Test func slotHoldersAreNotifiedOnTheirSlotAndNeverTakeTheMessageRoute() throws {
        var book = LinkBook()
        let legacy = try #require(open(&book, Self.a))
        let first = try #require(open(&book, Self.b))
        let second = try #require(open(&book, Self.c))
        let slots = [Self.b: 0, Self.c: 3]
        #expect(book.decide(size: 10, on: first.id, queueLimit: 8, notifying: true, slots: slots, slotsSubscribed: [0, 3])
                == .notifySlot(0))
        #expect(book.decide(size: 10, on: second.id, queueLimit: 8, notifying: true, slots: slots, slotsSubscribed: [0])
                == .hold, "slot 3 has no subscriber yet")
        #expect(book.decide(size: 10, on: second.id, queueLimit: 8, notifying: false, slots: slots, slotsSubscribed: [3])
                == .notifySlot(3))
        #expect(book.decide(size: 10, on: legacy.id, queueLimit: 8, notifying: true, slots: slots, slotsSubscribed: [0, 3])
                == .notify, "a client without a slot keeps the message characteristic")
        let late = try #require(open(&book, "/org/bluez/hci0/dev_DD"))
        #expect(book.route(of: late.id, subscribed: true, slots: slots)?.decision == .refuse(.notifyTaken),
                "a second client without a slot is still refused")
        #expect(book.route(of: late.id, subscribed: true, slots: slots)?.olderNotifyClients == 1,
                "slot holders are not counted as holders of the message route")
    }
}
