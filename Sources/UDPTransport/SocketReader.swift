import Dispatch
import Glibc
import PosixThread

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
/// `onReadable` reads a bounded batch; the loop polls again after it.
final class SocketReader: Sendable {
    private let waiter: StoppableWait

    /// Starts the thread; `onExit` runs on it after `stop`, once it no longer reads `fd`.
    init(
        fd: Int32, queue: DispatchQueue, onReadable: @escaping @Sendable () -> Void, onExit: @escaping @Sendable () -> Void
    ) throws(UDPTransportError) {
        do {
            waiter = try StoppableWait()
        } catch {
            switch error {
            case .pipe(let code): throw .system(call: "pipe", errno: code)
            }
        }
        let result = DetachedThread.start(name: "udp-reader") { [waiter] in
            Self.loop(fd: fd, waiter: waiter, queue: queue, onReadable: onReadable)
            onExit()
        }
        guard result == 0 else { throw .system(call: "pthread_create", errno: result) }
    }

    /// Ends the thread: it stops reading, runs `onExit` and returns. Later calls do nothing.
    func stop() {
        waiter.stop()
    }

    private static func loop(fd: Int32, waiter: StoppableWait, queue: DispatchQueue, onReadable: @Sendable () -> Void) {
        while let events = waiter.wait(for: fd) {
            let socketEvents = Int32(events)
            if socketEvents & Int32(POLLNVAL) != 0 { return }
            guard socketEvents & (Int32(POLLIN) | Int32(POLLERR)) != 0 else { continue }
            queue.sync { onReadable() }
        }
    }
}
