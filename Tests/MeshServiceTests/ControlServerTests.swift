import ControlProtocol
import Foundation
import Glibc
import MeshTestSupport
import Testing
@testable import MeshService

@Suite("control server")
struct ControlServerTests {
    @Test func repliesFieldByField() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let client = try RawControlClient(path: fixture.path)
        client.write(#"{"id": 1, "command": "status"}"# + "\n")
        let status = try #require(client.readObject())
        #expect(status["id"] as? Int == 1 && status["ok"] as? Bool == true)
        let result = try #require(status.object("result"))
        #expect(result["nodeID"] as? String == FakeNode.nodeID.hex && result["shortID"] as? String == "00112233")
        #expect(result["name"] as? String == "Hallway" && result["transport"] as? String == "udp")
        #expect(result["state"] as? String == "running" && result["uptimeSeconds"] as? Double == 61)
        #expect(result["neighbourCount"] as? Int == 1 && result["knownNodeCount"] as? Int == 2)
        #expect(result["version"] as? String == "0.1.0")

        client.write(#"{"id": "p", "command": "peers"}"# + "\n")
        let peers = try #require(client.readObject())
        #expect(peers["id"] as? String == "p")
        let neighbour = try #require((peers.object("result")?["neighbours"] as? [[String: Any]])?.first)
        #expect(neighbour["name"] as? String == "Kitchen" && neighbour["icon"] as? String == "🍳")
        #expect(neighbour["role"] as? String == "person" && neighbour["lastHeardSecondsAgo"] as? Double == 1.5)
        let link = try #require((neighbour["links"] as? [[String: Any]])?.first)
        #expect(link["linkID"] as? Int == 3 && link["role"] as? String == "central")
        #expect(link["address"] as? String == "127.0.0.1:7002" && link["mtu"] as? Int == 185 && link["rssi"] as? Int == -60)
        let remote = try #require((peers.object("result")?["remote"] as? [[String: Any]])?.first)
        #expect(remote["hops"] as? Int == 2 && remote["name"] == nil)

        client.write(#"{"id": 3, "command": "stats"}"# + "\n" + #"{"id": 4, "command": "id"}"# + "\n")
        let stats = try #require(client.readObject()?.object("result"))
        #expect(stats.object("memory")?["residentBytes"] as? Int == 12_582_912)
        #expect(stats.object("counters")?.object("message")?["relayed"] as? Int == 7)
        let identity = try #require(client.readObject()?.object("result"))
        #expect(identity["fingerprint"] as? String == "0011 2233" && identity["signingKey"] as? String == "0401")
        #expect(identity["agreementKey"] as? String == "0402")
    }

    @Test func sendBroadcastDirectAndRefused() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let client = try RawControlClient(path: fixture.path)
        client.write(#"{"id":1,"command":"send","text":"hello all","to":null}"# + "\n")
        #expect(client.readObject()?.object("result")?["messageID"] as? String == FakeNode.messageID.hex)
        client.write(#"{"id":2,"command":"send","text":"hi","to":"\#(FakeNode.neighbourID.hex)"}"# + "\n")
        #expect(client.readObject()?["ok"] as? Bool == true)
        #expect(fixture.node.sent == [.init(text: "hello all", to: nil), .init(text: "hi", to: FakeNode.neighbourID)])
        client.write(#"{"id":3,"command":"send","text":"x","to":"\#(FakeNode.nodeID.hex)"}"# + "\n")
        let unknown = try #require(client.readObject())
        #expect(unknown["id"] as? Int == 3 && unknown["ok"] as? Bool == false && unknown.errorCode == "unknown_node")
        client.write(#"{"id":4,"command":"send","text":"\#(String(repeating: "x", count: 101))"}"# + "\n")
        #expect(client.readObject()?.errorCode == "too_long")
        client.write(#"{"id":5,"command":"send","text":"x","to":"abc"}"# + "\n")
        #expect(client.readObject()?.errorCode == "bad_request")
        client.write(#"{"id":6,"command":"send"}"# + "\n")
        #expect(client.readObject()?.errorCode == "bad_request")
        #expect(fixture.server.counters().nodeErrors == 2)
    }

    @Test("garbage gets bad_request and the connection stays usable", arguments: [
        "not json", "{", "[1,2]", "42", #"{"command": 5}"#, #"{"id": 9}"#, "\u{1}\u{2}",
        String(repeating: "[", count: 10_000),
        // Invalid JSON in a field the server reads, broken structure, and one level too deep.
        #"{"command":"\ud800"}"#, #"{"id":01,"command":"id"}"#, #"{"command":"id","x":[1,,]}"#,
        "{\"command\":\"i\td\"}",
        #"{"command":"id","x":"# + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}",
    ])
    func garbage(_ line: String) throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let client = try RawControlClient(path: fixture.path)
        client.write(line + "\n")
        let reply = try #require(client.readObject())
        #expect(reply["ok"] as? Bool == false && reply.errorCode == "bad_request")
        #expect(reply.keys.contains("id"))
        client.write(#"{"id":2,"command":"id"}"# + "\n")
        #expect(client.readObject()?["ok"] as? Bool == true)
    }

    @Test func unknownCommandAndInvalidUTF8() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let client = try RawControlClient(path: fixture.path)
        client.write(#"{"id":7,"command":"reboot"}"# + "\n")
        let reply = try #require(client.readObject())
        #expect(reply["id"] as? Int == 7 && reply.errorCode == "unknown_command")
        client.write([0xff, 0xfe, 0x0a])
        #expect(client.readObject()?.errorCode == "bad_request")
        #expect(fixture.server.counters().badRequests == 2)
    }

    @Test func oversizedRequestGetsAnErrorThenCloseWhileOthersAreServed() throws {
        let fixture = try ServerFixture { $0.maxRequestBytes = 1024 }
        defer { fixture.server.stop() }
        let other = try RawControlClient(path: fixture.path)
        let big = try RawControlClient(path: fixture.path)
        big.write(String(repeating: "x", count: 5000))
        #expect(big.readObject()?.errorCode == "request_too_large")
        #expect(big.isClosedByServer())
        other.write(#"{"id":1,"command":"status"}"# + "\n")
        #expect(other.readObject()?["ok"] as? Bool == true)
        #expect(fixture.server.counters().oversizedRequests == 1)
    }

    @Test func halfWrittenRequestTimesOutWhileOthersAreServed() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let stalled = try RawControlClient(path: fixture.path)
        let other = try RawControlClient(path: fixture.path)
        stalled.write(#"{"id":1,"comm"#)
        other.write(#"{"id":2,"command":"status"}"# + "\n")
        #expect(other.readObject()?["ok"] as? Bool == true)
        let reply = try #require(stalled.readObject())
        #expect(reply.errorCode == "request_timeout")
        #expect(stalled.isClosedByServer())
        #expect(fixture.server.counters().timedOutRequests == 1)
        other.write(#"{"id":3,"command":"id"}"# + "\n")
        #expect(other.readObject()?["id"] as? Int == 3)
    }

    @Test func inputEndingMidLineGetsAnError() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let client = try RawControlClient(path: fixture.path)
        client.write(#"{"id":1,"command":"id"}"# + "\n" + #"{"id":2"#)
        client.finishWriting()
        #expect(client.readObject()?["id"] as? Int == 1)
        #expect(client.readObject()?.errorCode == "bad_request")
        #expect(client.isClosedByServer())
        #expect(fixture.server.counters().incompleteRequests == 1)
    }

    @Test func watchStreamsEventsUntilTheClientLeaves() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let client = try RawControlClient(path: fixture.path)
        client.write(#"{"id":1,"command":"watch"}"# + "\n")
        #expect(client.readObject()?.object("result")?["watching"] as? Bool == true)
        #expect(fixture.node.watcherCount == 1)
        fixture.node.emit(.message(id: FakeNode.messageID, from: FakeNode.neighbourID, to: nil, hops: 2, text: "hey", time: 1000))
        fixture.node.emit(.neighbourLeft(node: FakeNode.neighbourID, name: "Kitchen", reason: "silent", time: 1001))
        let message = try #require(client.readObject()?.object("event"))
        #expect(message["type"] as? String == "message" && message["text"] as? String == "hey")
        #expect(message["from"] as? String == FakeNode.neighbourID.hex && message["hops"] as? Int == 2 && message["to"] == nil)
        #expect(message["messageID"] as? String == FakeNode.messageID.hex && message["time"] as? Double == 1000)
        let left = try #require(client.readObject()?.object("event"))
        #expect(left["type"] as? String == "peer_left" && left["reason"] as? String == "silent")
        // Requests still work on a watching connection.
        client.write(#"{"id":2,"command":"id"}"# + "\n")
        #expect(client.readObject()?["id"] as? Int == 2)
        client.disconnect()
        fixture.node.emit(.link(down: .init(1), reason: "x"))
        let gone = Recorder<Int>()
        gone.wait(timeout: .seconds(10)) { _ in fixture.server.clientCount() == 0 }
        #expect(fixture.server.clientCount() == 0 && fixture.node.watcherCount == 0)
    }

    @Test func slowWatcherIsDroppedAndOthersCarryOn() throws {
        let fixture = try ServerFixture { $0.maxOutputBytes = 64 * 1024 }
        defer { fixture.server.stop() }
        let slow = try RawControlClient(path: fixture.path)
        slow.write(#"{"id":1,"command":"watch"}"# + "\n")
        #expect(slow.readObject() != nil)
        let text = String(repeating: "z", count: 4000)
        let recorder = Recorder<Int>()
        for _ in 0..<2000 where fixture.server.counters().slowClientsDropped == 0 {
            fixture.node.emit(.message(id: FakeNode.messageID, from: FakeNode.neighbourID, to: nil, hops: 0, text: text))
        }
        recorder.wait { _ in fixture.server.counters().slowClientsDropped == 1 }
        #expect(fixture.server.counters().slowClientsDropped == 1)
        let other = try RawControlClient(path: fixture.path)
        other.write(#"{"id":1,"command":"status"}"# + "\n")
        #expect(other.readObject()?["ok"] as? Bool == true)
        recorder.wait { _ in fixture.node.watcherCount == 0 }
        #expect(fixture.node.watcherCount == 0)
    }

    @Test func tooManyClientsAreTurnedAway() throws {
        let fixture = try ServerFixture { $0.maxClients = 2 }
        defer { fixture.server.stop() }
        let first = try RawControlClient(path: fixture.path)
        let second = try RawControlClient(path: fixture.path)
        first.write(#"{"id":1,"command":"id"}"# + "\n")
        second.write(#"{"id":1,"command":"id"}"# + "\n")
        #expect(first.readObject() != nil && second.readObject() != nil)
        let third = try RawControlClient(path: fixture.path)
        #expect(third.readObject()?.errorCode == "too_many_clients")
        #expect(fixture.server.counters().connectionsRejected == 1)
    }

    @Test func socketFileIsGroupReadableAndStaleFilesAreReplaced() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/control.sock"
        let first = ControlServer(configuration: ControlServerConfiguration(socketPath: path, group: nil), node: FakeNode())
        try first.start()
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o660)
        // A second server must not steal a live socket.
        let second = ControlServer(configuration: ControlServerConfiguration(socketPath: path, group: nil), node: FakeNode())
        #expect(throws: UnixSocketError.self) { try second.start() }
        first.stop()
        #expect(lstat(path, &info) != 0)
        // A stale socket file (nobody listening) is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = try UnixSocketAddress.withAddress(path) { bind(stale, $0, $1) }
        close(stale)
        try second.start()
        second.stop()
        // Anything that is not a socket is left alone.
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: UnixSocketError.notASocket(path)) { try second.start() }
    }

    @Test func missingGroupOnlyWarns() throws {
        let directory = try TemporaryDirectory()
        let warnings = Recorder<LogRecord>()
        let logger = DaemonLogger(destination: .custom { warnings.append($0) })
        let configuration = ControlServerConfiguration(socketPath: directory.path + "/c.sock", group: "no_such_group_xyz")
        let server = ControlServer(configuration: configuration, node: FakeNode(), logger: logger)
        try server.start()
        defer { server.stop() }
        #expect(warnings.all.contains { $0.level == .warning && $0.message.contains("no_such_group_xyz") })
    }
}
