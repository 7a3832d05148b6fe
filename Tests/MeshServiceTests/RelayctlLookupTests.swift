import ControlProtocol
import Foundation
import MeshProtocol
import RelayctlKit
import Testing
@testable import MeshService

@Suite("relayctl lookup and send to a node whose key is not known (PROTOCOL.md Part H)")
struct RelayctlLookupTests {
    @Test("send --to an unknown node waits for the lookup, then prints the message ID")
    func sendWaitsForTheKey() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "far", to: FakeNode.farID.hex), socketPath: fixture.path))
        #expect(code == .ok)
        #expect(output.stdout == FakeNode.messageID.hex + "\n")
        #expect(output.stderr.contains("looking it up") && output.stderr.contains("key found (5 hops); message sent"))
        // relayctl's polls never start another lookup.
        #expect(fixture.node.lookups.withLock { $0.allSatisfy { !$0.start } })
    }

    @Test("send --to a node no answer comes for exits 65 and says the message was not sent")
    func sendTimesOut() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "lost", to: FakeNode.lostID.hex), socketPath: fixture.path))
        #expect(code == .refused)
        #expect(output.stdout == FakeNode.messageID.hex + "\n")
        #expect(output.stderr.hasSuffix("no answer to the key lookup for e0e1e2e3 within 1 s: the message ffeeddcc was not sent\n"))
    }

    @Test("lookup shows short ID, name, distance and when heard", arguments: [FakeNode.neighbourID, FakeNode.farID])
    func lookupShowsWhatIsKnown(node: NodeID) throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.run(RelayctlInvocation(command: .lookup(node.hex), socketPath: fixture.path))
        #expect(code == .ok)
        #expect(output.stdout.contains("short ID  \(node.shortID)"))
        #expect(output.stdout.contains("name      Kitchen"))
        #expect(output.stdout.contains(node == FakeNode.neighbourID ? "distance  1 hop\n" : "distance  5 hops\n"))
        #expect(output.stdout.contains("heard     1s ago") || output.stdout.contains("heard     0s ago"))
        let started = fixture.node.lookups.withLock { $0.filter(\.start).count }
        #expect(started == 1)
    }

    @Test("lookup --json of a node never found prints the report and exits 65")
    func lookupJSONTimesOut() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.run(RelayctlInvocation(command: .lookup(FakeNode.lostID.hex), socketPath: fixture.path, json: true))
        #expect(code == .refused)
        let report = try JSONDecoder().decode(LookupReport.self, from: Data(output.stdout.utf8))
        #expect(!report.known && report.lookingUp && report.shortID == "e0e1e2e3")
    }

    @Test("lookup needs exactly one node", arguments: [["lookup"], ["lookup", ""], ["lookup", "a", "b"]])
    func lookupArguments(words: [String]) {
        #expect(throws: RelayctlUsageError.self) { try RelayctlArguments.parse(words, environment: [:]) }
    }
}
