import MeshLink
import Testing
@testable import GATTBridge

/// One LE connection per device, honest roles, frames never cut.
@Suite struct LinkBookTests {
    let a = "/org/bluez/hci0/dev_AA_AA_AA_AA_AA_AA"
    let b = "/org/bluez/hci0/dev_BB_BB_BB_BB_BB_BB"
    let other = "/org/bluez/hci1/dev_CC_CC_CC_CC_CC_CC"

    private func opened(_ book: inout LinkBook, devicePath: String, address: String, role: LinkRole, attMTU: Int,
                        remoteCharacteristic: String?) throws -> LinkRecord {
        let record = book.open(devicePath: devicePath, address: address, role: role, attMTU: attMTU,
                               peer: remoteCharacteristic.map(PeerDatabase.messageCharacteristic) ?? .unresolved)
        return try #require(record)
    }

    @Test func oneLinkPerDeviceWhateverTheRole() throws {
        var book = LinkBook()
        let first = try opened(&book, devicePath: a, address: "AA:AA:AA:AA:AA:AA", role: .central, attMTU: 185,
                                           remoteCharacteristic: a + "/service0010/char0011")
        #expect(book.open(devicePath: a, address: "AA:AA:AA:AA:AA:AA", role: .peripheral, attMTU: 23,
                          peer: .unresolved) == nil)
        #expect(book.link(forDevice: a)?.id == first.id)
        #expect(first.info == LinkInfo(id: first.id, role: .central, remoteAddress: "AA:AA:AA:AA:AA:AA", mtu: 182))
        let second = try opened(&book, devicePath: b, address: "BB:BB:BB:BB:BB:BB", role: .peripheral,
                                            attMTU: 23, remoteCharacteristic: nil)
        #expect(second.id > first.id)
        #expect(book.count(role: .central) == 1 && book.count(role: .peripheral) == 1)
    }

    @Test func idsAreNeverReused() throws {
        var book = LinkBook()
        let first = try opened(&book, devicePath: a, address: "A", role: .central, attMTU: 23, remoteCharacteristic: nil)
        #expect(book.close(first.id)?.devicePath == a)
        #expect(book.close(first.id) == nil)
        let again = try opened(&book, devicePath: a, address: "A", role: .central, attMTU: 23, remoteCharacteristic: nil)
        #expect(again.id != first.id)
    }

    @Test func sendDecisions() throws {
        var book = LinkBook()
        let link = try opened(&book, devicePath: a, address: "A", role: .central, attMTU: 23,
                                          remoteCharacteristic: "/char")
        #expect(book.decide(size: 20, on: link.id, queueLimit: 2, notifying: false) == .write(characteristic: "/char"))
        #expect(book.decide(size: 21, on: link.id, queueLimit: 2, notifying: false) == .refuse(.full, .oversized))
        #expect(book.decide(size: 1, on: link.id, queueLimit: 2, notifying: false) == .write(characteristic: "/char"))
        #expect(book.decide(size: 1, on: link.id, queueLimit: 2, notifying: false) == .refuse(.full, .queueFull))
        book.finished(on: link.id)
        #expect(book.links[link.id]?.inFlight == 1)
        #expect(book.decide(size: 1, on: LinkID(99), queueLimit: 2, notifying: false) == .refuse(.gone, .noLink))
    }

    @Test func notificationsOnlyForTheOneClientWithoutAService() throws {
        var book = LinkBook()
        let p1 = try opened(&book, devicePath: a, address: "A", role: .peripheral, attMTU: 100, remoteCharacteristic: nil)
        #expect(book.decide(size: 10, on: p1.id, queueLimit: 8, notifying: true) == .hold, "database not resolved yet")
        #expect(book.links[p1.id]?.inFlight == 1, "a held frame counts against the queue")
        #expect(book.setPeer(device: a, .noMeshService)?.peer == .noMeshService)
        #expect(book.setPeer(device: a, .noMeshService) == nil, "no change")
        #expect(book.decide(size: 10, on: p1.id, queueLimit: 8, notifying: false) == .hold, "nobody subscribed yet")
        #expect(book.decide(size: 10, on: p1.id, queueLimit: 8, notifying: true) == .notify)
        #expect(book.decide(size: 98, on: p1.id, queueLimit: 8, notifying: true) == .refuse(.full, .oversized),
                "a notification is never cut: MTU 100 carries 97 bytes")
        let p2 = try opened(&book, devicePath: b, address: "B", role: .peripheral, attMTU: 100, remoteCharacteristic: nil)
        _ = book.setPeer(device: b, .noMeshService)
        #expect(book.decide(size: 10, on: p2.id, queueLimit: 8, notifying: true) == .refuse(.full, .notifyTaken))
        #expect(book.decide(size: 10, on: p1.id, queueLimit: 8, notifying: true) == .notify, "the older client keeps it")
        _ = book.setPeer(device: b, .messageCharacteristic("/b/char"))
        #expect(book.decide(size: 10, on: p2.id, queueLimit: 8, notifying: true) == .write(characteristic: "/b/char"))
        _ = book.close(p1.id)
        _ = book.setPeer(device: b, .noMeshService)
        #expect(book.decide(size: 10, on: p2.id, queueLimit: 8, notifying: true) == .notify, "the route is free again")
    }

    @Test func aPeerThatWritesIsMarkedOnce() throws {
        var book = LinkBook()
        let link = try opened(&book, devicePath: a, address: "A", role: .central, attMTU: 185, remoteCharacteristic: "/c")
        #expect(link.peerWrites == false, "notifications count until the peer writes")
        let first = book.setPeerWrites(device: a), again = book.setPeerWrites(device: a)
        let unknown = book.setPeerWrites(device: b)
        #expect(first && !again)
        #expect(!unknown, "no link")
        #expect(book.links[link.id]?.peerWrites == true)
    }

    @Test func mtuIsClampedAndChangesReported() throws {
        var book = LinkBook()
        let link = try opened(&book, devicePath: a, address: "A", role: .central, attMTU: 5, remoteCharacteristic: nil)
        #expect(link.attMTU == 23 && link.maxFrame == 20)
        #expect(book.setMTU(device: a, attMTU: 247) == 244)
        #expect(book.setMTU(device: a, attMTU: 247) == nil)
        #expect(book.setMTU(device: a, attMTU: 513) == LinkBook.frameCap)
        #expect(book.setMTU(device: a, attMTU: 9000) == nil, "517 at most; the frame limit stays 510")
        #expect(book.link(forDevice: a)?.attMTU == 517)
        #expect(book.setMTU(device: b, attMTU: 100) == nil)
        #expect(book.setRSSI(device: a, -60) == link.id)
        #expect(book.setRSSI(device: a, -60) == nil)
    }

    @Test func adapterLossClosesOnlyItsLinks() throws {
        var book = LinkBook()
        _ = book.open(devicePath: b, address: "B", role: .peripheral, attMTU: 23, peer: .unresolved)
        _ = book.open(devicePath: a, address: "A", role: .central, attMTU: 23, peer: .unresolved)
        _ = book.open(devicePath: other, address: "C", role: .central, attMTU: 23, peer: .unresolved)
        let closed = book.closeAll(under: "/org/bluez/hci0")
        #expect(closed.map(\.address) == ["B", "A"])
        #expect(book.links.count == 1)
        #expect(book.link(forDevice: other) != nil)
        #expect(book.link(forDevice: a) == nil)
    }
}
