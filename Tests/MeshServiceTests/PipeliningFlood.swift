import Foundation
import Glibc
import MeshTestSupport
import Synchronization

/// Control clients that pipeline one request over and over and never read a reply, as the
/// outsider of issue 11 did: each writes whenever its socket takes more, on one thread.
final class PipeliningFlood: Sendable {
    /// The attackers' sockets.
    let descriptors: [Int32]
    private let stopped = Atomic<Bool>(false)
    private let ended = Mutex<Set<Int32>>([])
    private let finished = DispatchSemaphore(value: 0)

    /// Connects `clients` sockets to `path` and starts writing `request` lines on all of them.
    init(path: String, clients: Int, request: String) throws {
        var descriptors: [Int32] = []
        for _ in 0..<clients {
            let client = try RawControlClient.connectedDescriptor(path: path)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            descriptors.append(client)
        }
        self.descriptors = descriptors
        let line = Array((request + "\n").utf8)
        let block = Array([[UInt8]](repeating: line, count: max(1, 4096 / line.count)).joined())
        Thread.detachNewThread { [self] in
            self.run(block: block, lineLength: line.count)
            self.finished.signal()
        }
    }

    /// How many attackers saw their connection end (hang-up or a failed write).
    var endedCount: Int { ended.withLock { $0.count } }

    /// Stops writing and closes every attacker's socket.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
        for fd in descriptors { close(fd) }
    }

    deinit { stop() }

    private func run(block: [UInt8], lineLength: Int) {
        var phases = [Int](repeating: 0, count: descriptors.count)
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
        while !stopped.load(ordering: .acquiring) {
            guard poll(&polled, nfds_t(polled.count), 50) > 0 else { continue }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let events = Int32(polled[index].revents)
                let sent = events & (POLLHUP | POLLERR) != 0 ? -1 : block.withUnsafeBytes {
                    send(polled[index].fd, $0.baseAddress! + phases[index], $0.count - phases[index],
                         Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if sent > 0 {
                    phases[index] = (phases[index] + sent) % lineLength
                } else if sent < 0, errno != EAGAIN, errno != EINTR {
                    ended.withLock { _ = $0.insert(polled[index].fd) }
                    polled[index].fd = -1
                }
            }
        }
    }
}

/// Which sockets are open in this process, by inode: a closed descriptor's inode is gone
/// even when its number has been reused by a concurrent test.
enum OpenSockets {
    /// The `socket:[inode]` link of one descriptor, if it is a socket.
    static func inode(of fd: Int32) -> String? {
        var target = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
        guard length > 0 else { return nil }
        let text = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix("socket:") ? text : nil
    }

    /// The inodes of every socket open in this process now.
    static func all() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(names.compactMap { Int32($0) }.compactMap(inode(of:)))
    }
}
