import Glibc
import Synchronization

/// A thread's wait on one descriptor that another thread can end: `poll` on the descriptor and
/// on a pipe that `stop()` writes to. The UDP socket reader and the relay wake-up timer each
/// run their thread on one.
public final class StoppableWait: Sendable {
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopped = Atomic<Bool>(false)

    /// Creates the wake pipe (close-on-exec).
    public init() throws(StoppableWaitError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .pipe(errno: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        Glibc.close(wakeRead)
        if !stopped.load(ordering: .acquiring) { Glibc.close(wakeWrite) }
    }

    /// True once `stop()` was called.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Sleeps until `fd` has an event (for reading, or an error) and returns its `revents`; nil
    /// once `stop()` was called, or when `poll` fails other than by an interruption.
    public func wait(for fd: Int32) -> Int16? {
        withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { fds -> Int16? in
            fds[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            fds[1] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            while true {
                fds[0].revents = 0
                fds[1].revents = 0
                guard poll(fds.baseAddress, 2, -1) >= 0 else {
                    if errno == EINTR { continue }
                    return nil
                }
                if fds[1].revents != 0 || isStopped { return nil }
                if fds[0].revents != 0 { return fds[0].revents }
            }
        }
    }

    /// Ends the wait now and every later one; later calls do nothing.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
        Glibc.close(wakeWrite)
    }
}

/// Why a stoppable wait could not be made.
public enum StoppableWaitError: Error, Equatable {
    /// `pipe` failed with `errno`.
    case pipe(errno: Int32)
}
