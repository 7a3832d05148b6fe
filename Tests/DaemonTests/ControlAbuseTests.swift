import ControlProtocol
import Foundation
import Glibc
import MeshService
import Testing

/// A raw client on the control socket, for sending what relayctl never would.
final class RawSocket {
    let fd: Int32

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// The next line the daemon sends, within `timeout` seconds.
    func readLine(timeout: Double = 10) -> String? {
        var line: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var byte: UInt8 = 0
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    deinit { close(fd) }
}

@Suite("Control socket abuse", .serialized)
struct ControlAbuseTests {
    @Test("Garbage, oversized and half-written requests get errors; the node keeps relaying")
    func abuse() throws {
        let line = try LineOfNodes(count: 3)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        let b = line.nodes[1]

        let garbage = try #require(RawSocket(path: b.socketPath))
        garbage.write(Array("this is not json\n".utf8))
        let garbageReply = try #require(garbage.readLine())
        #expect(garbageReply.contains("\"ok\":false"))
        #expect(garbageReply.contains("bad_request"))

        let unknown = try #require(RawSocket(path: b.socketPath))
        unknown.write(Array("{\"id\":7,\"command\":\"selfdestruct\"}\n".utf8))
        let unknownReply = try #require(unknown.readLine())
        #expect(unknownReply.contains("unknown_command"))
        #expect(unknownReply.contains("\"id\":7"))

        let oversized = try #require(RawSocket(path: b.socketPath))
        oversized.write(Array(repeating: UInt8(ascii: "x"), count: 100_000) + [0x0A])
        let oversizedReply = try #require(oversized.readLine())
        #expect(oversizedReply.contains("request_too_large"))

        let halfWritten = try #require(RawSocket(path: b.socketPath))
        halfWritten.write(Array("{\"id\":1,\"command\":\"sta".utf8))

        // While the half-written request hangs, the node still relays A's message to C.
        let sent = line.nodes[0].ctl("send", "still relaying")
        #expect(sent.status == 0)
        #expect(eventually { line.counter(2, "message", "delivered") == 1 })
        #expect(line.counter(1, "message", "relayed") == 1)
        let timedOut = halfWritten.readLine(timeout: 10)
        #expect(timedOut?.contains("request_timeout") == true)
        let stats = try #require(b.json(StatsReport.self, "stats"))
        #expect((stats.counters["control"]?["bad_requests"] ?? 0) >= 1)
        #expect((stats.counters["control"]?["oversized_requests"] ?? 0) >= 1)
    }
}
