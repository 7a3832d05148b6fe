import MeshLink
import MeshProtocol
import Testing
@testable import MeshNode

private let alice = try! NodeID(bytes: Array(repeating: 0xA1, count: 16))
private let bob = try! NodeID(bytes: Array(repeating: 0xB0, count: 16))

@Test("A neighbour on two links keeps its entry until the last link goes")
func twoLinksOnePerson() {
    var table = NeighbourTable()
    #expect(table.attach(LinkID(1), role: .central, to: alice, now: .zero) == .newNeighbour)
    #expect(table.attach(LinkID(2), role: .peripheral, to: alice, now: .seconds(1)) == .additionalLink)
    #expect(table.linkedNeighbours == [alice])
    #expect(table.detach(LinkID(1), now: .seconds(2)) == .stillLinked(alice))
    #expect(table.bestLink(to: alice) == LinkID(2))
    #expect(table.detach(LinkID(2), now: .seconds(3)) == .graceStarted(alice))
    #expect(table.linkedNeighbours.isEmpty)
    #expect(table.neighbours[alice] != nil)
}

@Test("A link returning within the grace restores the neighbour without a new join")
func returnWithinGrace() {
    var table = NeighbourTable()
    _ = table.attach(LinkID(1), role: .central, to: alice, now: .zero)
    _ = table.detach(LinkID(1), now: .seconds(1))
    #expect(table.departures(now: .seconds(20), grace: .seconds(30)).isEmpty)
    #expect(table.attach(LinkID(3), role: .peripheral, to: alice, now: .seconds(20)) == .returned)
    #expect(table.departures(now: .seconds(100), grace: .seconds(30)).isEmpty)
}

@Test("A neighbour departs once its grace runs out", arguments: [29, 30, 31])
func departureAfterGrace(seconds: Int64) {
    var table = NeighbourTable()
    _ = table.attach(LinkID(1), role: .central, to: alice, now: .zero)
    _ = table.detach(LinkID(1), now: .zero)
    let departed = table.departures(now: .seconds(seconds), grace: .seconds(30))
    #expect(departed == (seconds >= 30 ? [alice] : []))
    #expect((table.neighbours[alice] == nil) == (seconds >= 30))
}

@Test("Sending prefers a link where we are central")
func preferCentral() {
    var table = NeighbourTable()
    _ = table.attach(LinkID(1), role: .peripheral, to: bob, now: .zero)
    #expect(table.bestLink(to: bob) == LinkID(1))
    _ = table.attach(LinkID(7), role: .central, to: bob, now: .zero)
    #expect(table.bestLink(to: bob) == LinkID(7))
}

@Test("Removing one role never removes the other")
func rolesAreIndependent() {
    var table = NeighbourTable()
    _ = table.attach(LinkID(1), role: .central, to: bob, now: .zero)
    _ = table.attach(LinkID(2), role: .peripheral, to: bob, now: .zero)
    _ = table.detach(LinkID(2), now: .zero)
    #expect(table.neighbours[bob]?.links == [LinkID(1): .central])
    #expect(table.detach(LinkID(2), now: .zero) == .unknownLink)
}

@Test("Silent neighbours are reported after the grace")
func silentNeighbours() {
    var table = NeighbourTable()
    _ = table.attach(LinkID(1), role: .central, to: alice, now: .zero)
    _ = table.attach(LinkID(2), role: .central, to: bob, now: .zero)
    table.heard(bob, now: .seconds(25))
    #expect(table.silent(now: .seconds(30), grace: .seconds(30)) == [alice])
}
