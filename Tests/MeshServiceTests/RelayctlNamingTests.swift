import ControlProtocol
import Foundation
import MeshProtocol
import RelayctlKit
import Testing
@testable import MeshService

/// Issue 33, items 1 and 2: nodes named by prefix or name; waiting messages listed by ID,
/// cancelled by `cancel` / `mailbox drop` and by Ctrl-C during `send --to`, unless `--detach`.
@Suite("relayctl: nodes by prefix or name, waiting messages by ID")
struct RelayctlNamingTests {
    typealias Output = RelayctlRunnerTests.Output

    @Test("send --to takes a unique prefix of 4+ hex digits or a name", arguments: ["a0a1", "A0A1A2A3", "Kitchen", "kitchen"])
    func sendToAPrefixOrName(typed: String) throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "hi", to: typed), socketPath: fixture.path))
        #expect(code == .ok)
        #expect(fixture.node.sent == [.init(text: "hi", to: FakeNode.neighbourID)])
    }

    @Test("a name or prefix no known node has is a usage error that sends nothing", arguments: ["Garden", "abcd", "a0a"])
    func unknownNameIsAUsageError(typed: String) throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "hi", to: typed), socketPath: fixture.path))
        #expect(code == .usage)
        #expect(fixture.node.sent.isEmpty)
        #expect(output.stderr.hasPrefix("relayctl: "))
    }

    @Test func lookupTakesAName() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        #expect(output.runner.run(RelayctlInvocation(command: .lookup("Kitchen"), socketPath: fixture.path)) == .ok)
        #expect(fixture.node.lookups.withLock { $0.map(\.node) } == [FakeNode.neighbourID])
    }

    @Test("Ctrl-C while send --to waits for a key prints the ID at once and cancels the message")
    func interruptCancels() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output(pause: { _ in true })
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "far", to: FakeNode.lostID.hex), socketPath: fixture.path))
        #expect(code == .interrupted)
        #expect(output.stdout == FakeNode.messageID.hex + "\n")
        #expect(fixture.node.cancels.withLock { $0 } == [FakeNode.messageID])
        #expect(output.stderr.hasSuffix("relayctl: interrupted; message ffeeddcc cancelled, it will not be sent\n"))
    }

    @Test("send --to --detach prints the ID and returns without waiting or cancelling")
    func detachReturnsAtOnce() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output(pause: { _ in Issue.record("detach must not wait"); return true })
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "far", to: FakeNode.lostID.hex, detach: true), socketPath: fixture.path))
        #expect(code == .ok)
        #expect(output.stdout == FakeNode.messageID.hex + "\n")
        #expect(fixture.node.cancels.withLock { $0 }.isEmpty)
        #expect(fixture.node.lookups.withLock { $0 }.isEmpty)
        #expect(output.stderr.contains("relayctl cancel ffeeddcc cancels it"))
    }

    @Test("cancel and mailbox drop take the ID or a prefix of it", arguments: ["ffeeddccbbaa99887766554433221100", "ffee", "FFEEDDCC"])
    func cancelByPrefix(typed: String) throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        #expect(output.runner.run(RelayctlInvocation(command: .cancel(typed), socketPath: fixture.path)) == .ok)
        #expect(fixture.node.cancels.withLock { $0 } == [FakeNode.messageID])
        #expect(output.stdout == "cancelled ffeeddccbbaa99887766554433221100 to f0f1f2f3 (3 bytes); it will not be sent\n")
    }

    @Test func cancellingAMessageThatDoesNotWaitIsRefused() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        let code = output.runner.run(RelayctlInvocation(command: .cancel("00000000000000000000000000000001"), socketPath: fixture.path))
        #expect(code == .refused)
        #expect(output.stderr.contains("(unknown_message)"))
        #expect(output.runner.run(RelayctlInvocation(command: .cancel("abcd"), socketPath: fixture.path)) == .usage)
    }

    @Test func mailboxListsWaitingMessagesByID() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        #expect(output.runner.run(RelayctlInvocation(command: .mailbox, socketPath: fixture.path)) == .ok)
        #expect(output.stdout.contains("Waiting for a key, 1 message(s) of this node's own:"))
        #expect(output.stdout.contains("ffeeddcc  e0e1e2e3"))
        #expect(output.stdout.contains("relayctl mailbox drop MESSAGE cancels one."))
    }

    @Test("the cancel request needs a 32-hex-digit messageID")
    func cancelRequestValidation() {
        let handler = ControlRequestHandler(node: FakeNode())
        #expect(handler.handle(Array(#"{"command":"cancel"}"#.utf8)).failure == .badRequest)
        #expect(handler.handle(Array(#"{"command":"cancel","messageID":"ffee"}"#.utf8)).failure == .badRequest)
        #expect(handler.handle(Array(#"{"command":"cancel","messageID":"ffeeddccbbaa99887766554433221100"}"#.utf8)).failure == nil)
        #expect(handler.handle(Array(#"{"command":"cancel","messageID":"00000000000000000000000000000001"}"#.utf8)).failure == .unknownMessage)
    }
}
