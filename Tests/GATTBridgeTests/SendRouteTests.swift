import MeshLink
import Testing
@testable import GATTBridge

/// Write, notify, wait or refuse: the send rule per link for BlueZ 5.66, where a notification reaches
/// every subscriber (docs/BLUEZ.md "Links and roles").
@Suite struct SendRouteTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let role: LinkRole
        let peer: PeerDatabase
        let subscribed: Bool
        let older: Int
        let expected: RouteDecision
        let why: String
        var testDescription: String { why }
    }

    static let cases: [Case] = [
        Case(role: .central, peer: .messageCharacteristic("/p/char"), subscribed: false, older: 0,
             expected: .write(characteristic: "/p/char"), why: "we dialled a node: write to it"),
        Case(role: .peripheral, peer: .messageCharacteristic("/p/char"), subscribed: true, older: 0,
             expected: .write(characteristic: "/p/char"), why: "a peer that dialled us and hosts the service: write, never notify"),
        Case(role: .peripheral, peer: .messageCharacteristic("/p/char"), subscribed: true, older: 3,
             expected: .write(characteristic: "/p/char"), why: "writes do not care about clients without a service"),
        Case(role: .peripheral, peer: .unresolved, subscribed: true, older: 0,
             expected: .wait, why: "database not resolved: wait, do not guess"),
        Case(role: .central, peer: .unresolved, subscribed: true, older: 0,
             expected: .wait, why: "central before resolution: wait"),
        Case(role: .peripheral, peer: .noMeshService, subscribed: true, older: 0,
             expected: .notify, why: "the one client without a service: notify"),
        Case(role: .peripheral, peer: .noMeshService, subscribed: false, older: 0,
             expected: .wait, why: "client without a service that has not subscribed yet: wait"),
        Case(role: .peripheral, peer: .noMeshService, subscribed: true, older: 1,
             expected: .refuse(.notifyTaken), why: "a second client without a service would see the first one's frames"),
        Case(role: .central, peer: .noMeshService, subscribed: true, older: 0,
             expected: .refuse(.noRoute), why: "we dialled a device without the service: nothing to write to"),
    ]

    @Test("Each kind of link", arguments: cases)
    func decision(_ item: Case) {
        let route = SendRoute(role: item.role, peer: item.peer, subscribed: item.subscribed,
                              olderNotifyClients: item.older)
        #expect(route.decision == item.expected)
    }

    private func open(_ book: inout LinkBook, devicePath: String, address: String, role: LinkRole, attMTU: Int,
                      peer: PeerDatabase) -> LinkRecord? {
        book.open(devicePath: devicePath, address: address, role: role, attMTU: attMTU, peer: peer)
    }

    @Test func onlyOlderClientsWithoutAServiceCount() throws {
        var book = LinkBook()
        let node = try #require(open(&book, devicePath: "/org/bluez/hci0/dev_1", address: "1", role: .peripheral,
                                          attMTU: 185, peer: .messageCharacteristic("/n")))
        let dialled = try #require(open(&book, devicePath: "/org/bluez/hci0/dev_2", address: "2", role: .central,
                                             attMTU: 185, peer: .messageCharacteristic("/d")))
        let first = try #require(open(&book, devicePath: "/org/bluez/hci0/dev_3", address: "3", role: .peripheral,
                                           attMTU: 185, peer: .noMeshService))
        let second = try #require(open(&book, devicePath: "/org/bluez/hci0/dev_4", address: "4", role: .peripheral,
                                            attMTU: 185, peer: .noMeshService))
        #expect(book.route(of: node.id, subscribed: true)?.olderNotifyClients == 0)
        #expect(book.route(of: dialled.id, subscribed: true)?.olderNotifyClients == 0)
        #expect(book.route(of: first.id, subscribed: true)?.decision == .notify)
        #expect(book.route(of: second.id, subscribed: true)?.decision == .refuse(.notifyTaken))
        #expect(book.route(of: LinkID(99), subscribed: true) == nil)
    }
}
