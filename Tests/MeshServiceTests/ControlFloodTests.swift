import Foundation
import Glibc
import MeshTestSupport
import Testing
@testable import MeshService

/// Issue 11, point 4: clients that pipeline requests and never read must not stall the
/// server, must stop costing work, and must be closed when dropped.
@Suite("control server under a pipelining flood", .serialized)
struct ControlFloodTests {
    static let attackers = 63
    static let peersRequest = #"{"command":"peers"}"#

    @Test("63 clients pipelining without reading: another client is answered and their requests stop running")
    func floodersArePausedAndOthersAnswered() throws {
        let fixture = try ServerFixture { $0.stuckTimeout = .seconds(600) }
        defer { fixture.server.stop() }
        let flood = try PipeliningFlood(path: fixture.path, clients: Self.attackers, request: Self.peersRequest)
        let waiter = Recorder<Int>()
        let paused = waiter.wait(timeout: .seconds(60)) { _ in fixture.server.counters().readsPaused >= UInt64(Self.attackers) }
        #expect(paused, "\(fixture.server.counters())")

        // Every flooder is paused: none of their requests runs any more, while this one is answered.
        let executed = fixture.server.counters().requests
        let other = try RawControlClient(path: fixture.path)
        for id in 1...3 {
            other.write(#"{"id":\#(id),"command":"status"}"# + "\n")
            let reply = other.readObject()
            #expect(reply?["id"] as? Int == id && reply?["ok"] as? Bool == true)
        }
        #expect(fixture.server.counters().requests == executed + 3)
        #expect(fixture.server.counters().slowClientsDropped == 0)
        #expect(fixture.server.clientCount() == Self.attackers + 1)

        // Flooders that hang up are dropped and their descriptors closed.
        let serverSockets = Set(fixture.server.clientDescriptors().compactMap(OpenSockets.inode(of:)))
        let otherSocket = try #require(OpenSockets.inode(of: other.fd))
        flood.stop()
        let gone = waiter.wait(timeout: .seconds(30)) { _ in fixture.server.clientCount() == 1 }
        #expect(gone, "clients left: \(fixture.server.clientCount())")
        let closed = waiter.wait(timeout: .seconds(30)) { _ in
            OpenSockets.all().intersection(serverSockets).count == 1
        }
        #expect(closed, "server-side sockets still open: \(OpenSockets.all().intersection(serverSockets).count - 1)")
        #expect(OpenSockets.all().contains(otherSocket))
        other.write(#"{"id":9,"command":"id"}"# + "\n")
        #expect(other.readObject()?["id"] as? Int == 9)
    }

    @Test("Flooders that stay stuck are dropped, told so by the end of their connection, and closed at once")
    func stuckFloodersAreDroppedAndClosed() throws {
        let fixture = try ServerFixture { $0.stuckTimeout = .milliseconds(300) }
        defer { fixture.server.stop() }
        let flood = try PipeliningFlood(path: fixture.path, clients: Self.attackers, request: Self.peersRequest)
        defer { flood.stop() }
        let waiter = Recorder<Int>()
        #expect(waiter.wait { _ in fixture.server.clientCount() == Self.attackers })
        let serverSockets = Set(fixture.server.clientDescriptors().compactMap(OpenSockets.inode(of:)))
        #expect(serverSockets.count == Self.attackers)

        let dropped = waiter.wait(timeout: .seconds(60)) { _ in
            fixture.server.counters().stuckClientsDropped == UInt64(Self.attackers)
        }
        #expect(dropped, "stuck clients dropped: \(fixture.server.counters().stuckClientsDropped)")
        #expect(fixture.server.clientCount() == 0 && fixture.server.counters().connectedClients == 0)
        #expect(waiter.wait { _ in OpenSockets.all().isDisjoint(with: serverSockets) })
        #expect(waiter.wait { _ in flood.endedCount == Self.attackers }, "attackers told: \(flood.endedCount)")

        let other = try RawControlClient(path: fixture.path)
        other.write(#"{"id":1,"command":"status"}"# + "\n")
        #expect(other.readObject()?["ok"] as? Bool == true)
    }

    @Test("A client that pipelines 2,000 requests before reading gets every reply in order, in fair turns, and is not dropped")
    func pipelinedRequestsAreAnsweredInTurns() throws {
        let fixture = try ServerFixture { $0.stuckTimeout = .seconds(600) }
        defer { fixture.server.stop() }
        let client = try RawControlClient(path: fixture.path)
        let requests = (1...2000).map { #"{"id":\#($0),"command":"peers"}"# + "\n" }.joined()
        client.write(requests)
        let waiter = Recorder<Int>()
        #expect(waiter.wait { _ in fixture.server.counters().readsPaused >= 1 })
        #expect(fixture.server.counters().requests < 2000)
        var ids: [Int] = []
        while ids.count < 2000, let reply = client.readObject() { ids.append(reply["id"] as? Int ?? -1) }
        #expect(ids == Array(1...2000))
        let counters = fixture.server.counters()
        #expect(counters.requests == 2000 && counters.turnsYielded >= 1)
        #expect(counters.slowClientsDropped == 0 && counters.stuckClientsDropped == 0)
    }
}
