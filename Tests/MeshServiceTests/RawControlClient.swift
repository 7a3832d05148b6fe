import ControlProtocol
import Foundation
import Glibc
import MeshTestSupport
@testable import MeshService

/// A bare socket client that can misbehave: partial lines, garbage, not reading.
final class RawControlClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    init(path: String) throws {
        fd = try Self.connectedDescriptor(path: path)
    }

    /// A socket connected to `path`.
    static func connectedDescriptor(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let result = try UnixSocketAddress.withAddress(path) { connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw UnixSocketError.system(call: "connect", errno: code)
        }
        return fd
    }

    deinit { disconnect() }

    /// Closes the socket once (a second close could hit a descriptor another test reuses).
    func disconnect() {
        guard !closed else { return }
        closed = true
        close(fd)
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Closes the writing side (the server sees end of input).
    func finishWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line as a JSON object, or nil at end of stream or after `timeout`.
    func readObject(timeout: Duration = .seconds(10)) -> [String: Any]? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
    }

    /// The next line, or nil at end of stream or after `timeout`.
    func readLine(timeout: Duration = .seconds(10)) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, waitReadable(fd, timeout: remaining) else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// True when the server closed the connection (end of stream) within `timeout`.
    func isClosedByServer(timeout: Duration = .seconds(10)) -> Bool {
        while let _ = readLine(timeout: timeout) {}
        var byte: UInt8 = 0
        guard waitReadable(fd, timeout: .zero) else { return false }
        // An orderly close reads as end of file; a close while our unread request bytes were still
        // in the server's buffer makes the kernel reset the connection instead. Both are the server's.
        let received = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return received == 0 || (received < 0 && errno == ECONNRESET)
    }
}

/// A control server on a temporary socket with a fake node.
struct ServerFixture {
    let directory: TemporaryDirectory
    let node = FakeNode()
    let server: ControlServer
    var path: String { server.configuration.socketPath }

    init(_ adjust: (inout ControlServerConfiguration) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory()
        var configuration = ControlServerConfiguration(socketPath: directory.path + "/control.sock", group: nil)
        configuration.requestTimeout = .milliseconds(300)
        adjust(&configuration)
        server = ControlServer(configuration: configuration, node: node, logger: DaemonLogger(destination: .custom { _ in }))
        try server.start()
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A nested object.
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
    /// The error code of a failed reply.
    var errorCode: String? { object("error")?["code"] as? String }
}
