import ControlProtocol
import Glibc

/// A blocking client of the control socket, for `relayctl` and scripts; every wait is bounded
/// by `timeout` except `nextLine(waitForever:)` used by `watch`.
public final class ControlClient {
    /// The longest reply line accepted.
    public static let maxReplyBytes = 8 * 1_048_576
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 1
    private var closed = false

    /// Connects to the socket at `path`.
    public init(socketPath path: String, timeout: Duration = .seconds(10)) throws(ControlClientError) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, reason: String(cString: strerror(errno)), fix: nil) }
        Self.setTimeout(fd, SO_SNDTIMEO, timeout)
        Self.setTimeout(fd, SO_RCVTIMEO, timeout)
        let result: Int32
        do {
            result = try UnixSocketAddress.withAddress(path) { connect(fd, $0, $1) }
        } catch {
            Glibc.close(fd)
            throw .cannotConnect(path: path, reason: error.description, fix: nil)
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .cannotConnect(path: path, reason: String(cString: strerror(code)),
                                 fix: SocketPathKind.at(path).fix(path: path, errno: code))
        }
    }

    deinit { close() }

    /// Closes the connection.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Sends one request (its `id` is filled in) and returns the reply's raw JSON line.
    public func requestLine(_ request: ControlRequest) throws(ControlClientError) -> [UInt8] {
        var request = request
        if request.id == nil {
            request.id = .number(nextID)
            nextID += 1
        }
        let failure = write(ControlJSON.line(request))
        if failure != 0 {
            // A daemon that refuses the connection (too_many_clients) writes its reply and closes,
            // maybe before the request went out: the reply is then already here to read.
            guard failure == EPIPE || failure == ECONNRESET, let reply = try? nextLine(waitForever: false) else {
                throw .io(String(cString: strerror(failure)))
            }
            return reply
        }
        guard let line = try nextLine(waitForever: false) else { throw .io("meshnoded closed the connection") }
        return line
    }

    /// Sends one request and decodes the reply with the result type `Result`.
    public func request<Result: Codable & Sendable>(
        _ request: ControlRequest, as _: Result.Type
    ) throws(ControlClientError) -> ControlReply<Result> {
        try Self.decodeReply(requestLine(request), as: Result.self)
    }

    /// Decodes a reply line; a failed reply decodes even when `Result` does not match.
    public static func decodeReply<Result: Codable & Sendable>(
        _ line: [UInt8], as _: Result.Type
    ) throws(ControlClientError) -> ControlReply<Result> {
        do {
            return try ControlJSON.decode(ControlReply<Result>.self, from: line)
        } catch {
            throw .protocolError("reply is not a valid \(Result.self) reply")
        }
    }

    /// Reads the next line (without its newline); nil when the daemon closed the connection.
    public func nextLine(waitForever: Bool) throws(ControlClientError) -> [UInt8]? {
        if waitForever { Self.setTimeout(fd, SO_RCVTIMEO, .zero) }
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line
            }
            guard buffer.count <= Self.maxReplyBytes else { throw .protocolError("reply line too long") }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                let code = errno
                throw .io(code == EAGAIN || code == EWOULDBLOCK ? "timed out waiting for meshnoded" : String(cString: strerror(code)))
            }
            if count == 0 {
                guard buffer.isEmpty else { throw .protocolError("connection closed in the middle of a line") }
                return nil
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes all of `bytes`; returns 0, or the errno of the failed write.
    private func write(_ bytes: [UInt8]) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EPIPE }
            offset += count
        }
        return 0
    }

    private static func setTimeout(_ fd: Int32, _ option: Int32, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}
