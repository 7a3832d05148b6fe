import MeshLink
import Testing
@testable import UDPTransport

/// A full slot table displaces unkeyed links, never keyed ones, and strangers never displace
/// links from addresses that were keyed lately.
@Suite("UDP link slots")
struct UDPSlotTests {
    static func table(maxLinks: Int, neighbours: [UDPEndpoint] = []) throws -> UDPLinkTable {
        UDPLinkTable(configuration: UDPTransportConfiguration(bind: try UDPEndpoint(parsing: "127.0.0.1:7002"),
                                                    neighbours: neighbours, maxLinks: maxLinks), seed: 3)
    }

    static func port(_ number: UInt16) throws -> UDPEndpoint { try UDPEndpoint(host: "127.0.0.1", port: number) }

    static func connect(_ table: inout UDPLinkTable, from number: UInt16, nonce: UInt64, at now: Duration) throws -> [UDPLinkTable.Action] {
        let datagram = UDPDatagram(type: .connect, fromCentral: true, instance: UInt64(number), linkNonce: nonce,
                                   body: UDPDatagram.mtuBody(185))
        return table.receive(datagram.encoded(), from: try port(number), now: now)
    }

    static func remotes(_ table: UDPLinkTable) -> Set<UInt16> { Set(table.links.values.map(\.remote.port)) }

    @Test("a stranger's connect to a full table", arguments: [
        (keyed: false, remembered: false, displaced: true),
        (keyed: true, remembered: false, displaced: false),
        (keyed: false, remembered: true, displaced: false),
    ])
    func strangerConnect(keyed: Bool, remembered: Bool, displaced: Bool) throws {
        var table = try Self.table(maxLinks: 1)
        _ = try Self.connect(&table, from: 7003, nonce: 1, at: .zero)
        let first = try #require(table.links.keys.first)
        if remembered { table.keyedEndpoints.note(try Self.port(7003), now: .zero) }
        if keyed { table.markKeyed(first, now: .zero) }
        _ = try Self.connect(&table, from: 9000, nonce: 2, at: .seconds(1))
        #expect(Self.remotes(table) == (displaced ? [9000] : [7003]))
        #expect(table.counters.displacedUnkeyed == (displaced ? 1 : 0))
        #expect(table.counters.rejectedFull == (displaced ? 0 : 1))
    }

    @Test func aRememberedNeighbourDisplacesTheOldestStrangerWhileStrangersFlood() throws {
        var table = try Self.table(maxLinks: 8)
        // C was keyed here, then its link dropped.
        _ = try Self.connect(&table, from: 7003, nonce: 1, at: .zero)
        let c = try #require(table.links.keys.first)
        table.markKeyed(c, now: .zero)
        _ = table.removeLink(c, reason: "silent", notifyPeer: false, now: .seconds(1))
        // Strangers fill every slot and keep refilling.
        for step in 0..<40 { _ = try Self.connect(&table, from: UInt16(20000 + step), nonce: UInt64(100 + step), at: .milliseconds(1000 + step)) }
        #expect(table.links.count == 8 && !Self.remotes(table).contains(7003))
        _ = try Self.connect(&table, from: 7003, nonce: 2, at: .seconds(2))
        #expect(Self.remotes(table).contains(7003))
        for step in 40..<80 { _ = try Self.connect(&table, from: UInt16(20000 + step), nonce: UInt64(100 + step), at: .milliseconds(2000 + step)) }
        #expect(Self.remotes(table).contains(7003), "strangers never displace a remembered address")
    }

    @Test func aConfiguredNeighboursAcceptIsNotRefusedByAFullTable() throws {
        let c = try Self.port(7003)
        var table = try Self.table(maxLinks: 2, neighbours: [c])
        for step in 0..<2 { _ = try Self.connect(&table, from: UInt16(30000 + step), nonce: UInt64(step + 1), at: .zero) }
        let connect = try #require(table.tick(now: .zero).compactMap { action -> UDPDatagram? in
            if case .send(let datagram, c) = action, datagram.type == .connect { datagram } else { nil }
        }.first, "a connect goes out even when every slot is taken")
        let accept = UDPDatagram(type: .accept, fromCentral: false, instance: 5, linkNonce: connect.linkNonce,
                                 body: UDPDatagram.mtuBody(185))
        _ = table.receive(accept.encoded(), from: c, now: .milliseconds(1))
        #expect(table.links.values.contains { $0.remote == c && $0.role == .central })
        #expect(table.counters.displacedUnkeyed == 1)
    }
}
