import Foundation
import Glibc

/// A NOTIFY_SOCKET the test owns: a Unix datagram socket collecting sd_notify messages.
final class NotifyListener {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// Reads datagrams until one contains `needle` or `timeout` passes; returns all read.
    func waitFor(_ needle: String, timeout: Double = 10) -> [String] {
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            seen.append(text)
            if text.contains(needle) { return seen }
        }
        return seen
    }

    /// Waits until the socket's receive queue is full (a sender would block), or `timeout`
    /// passes; true when full. Asks the kernel without sending anything: a datagram socket
    /// connected to this one polls as not writable while this one's queue is full.
    func waitUntilFull(timeout: Double) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return false }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var poller = pollfd(fd: probe, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, 0) == 0 { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }

    deinit {
        close(fd)
        unlink(path)
    }
}
