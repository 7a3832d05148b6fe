import Dispatch
import Glibc
import MeshLink
import PosixThread
import Synchronization

/// A thread of its own that sleeps in `poll` until a socket is readable, then runs
/// `onReadable` on `queue` with `queue.sync`, which runs the block on this very thread when
/// the queue is idle and waits its turn when it is not, so the queue stays the one place the
/// transport's state changes, in order.
///
/// A dispatch read source costs three wake-ups for every datagram that arrives alone: libdispatch's
/// manager thread wakes from `epoll_wait`, wakes a worker to run the handler, and is woken again to
/// re-arm the source. Here the kernel wakes this thread, and that is all (docs/PERFORMANCE.md,
/// "The daemon: CPU per relayed message").
///
/// `onReadable` returns true when it stopped at its batch bound with data possibly still
/// waiting. `hooks`, when given, run on this thread around every batch, outside the queue:
/// the owner of the events may then handle them right here instead of waking a thread.
final class SocketReader: Sendable {
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopped = Atomic<Bool>(false)

    /// Starts the thread; `onExit` runs on it after `stop`, once it no longer reads `fd`.
    init(
        fd: Int32, queue: DispatchQueue, hooks: TransportReaderHooks? = nil,
        onReadable: @escaping @Sendable () -> Bool, onExit: @escaping @Sendable () -> Void
    ) throws(UDPTransportError) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw .system(call: "pipe", errno: errno) }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        let wake = pipeEnds[0]
        let result = DetachedThread.start(name: "udp-reader") {
            Self.loop(fd: fd, wake: wake, queue: queue, hooks: hooks, onReadable: onReadable)
            Glibc.close(wake)
            onExit()
        }
        guard result == 0 else {
            Glibc.close(pipeEnds[0])
            Glibc.close(pipeEnds[1])
            throw .system(call: "pthread_create", errno: result)
        }
    }

    /// Ends the thread: it stops reading, runs `onExit` and returns. Later calls do nothing.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
        Glibc.close(wakeWrite)
    }

    private static func loop(
        fd: Int32, wake: Int32, queue: DispatchQueue, hooks: TransportReaderHooks?, onReadable: @Sendable () -> Bool
    ) {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            guard poll(&fds, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            let socketEvents = Int32(fds[0].revents)
            if socketEvents & Int32(POLLNVAL) != 0 { return }
            guard socketEvents & (Int32(POLLIN) | Int32(POLLERR)) != 0 else { continue }
            hooks?.willDeliver()
            let moreWaiting = queue.sync { onReadable() }
            hooks?.didDeliver(moreWaiting)
        }
    }
}
