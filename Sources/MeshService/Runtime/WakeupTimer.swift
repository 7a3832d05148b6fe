import CTimerFD
import Dispatch
import Glibc
import PosixThread

/// A one-shot timer with a thread of its own: `arm(after:)` sets a Linux timerfd, the thread
/// sleeps in `poll` until it expires, then runs `onFire` on `queue` with `queue.sync`, which runs
/// the block on this very thread when the queue is idle and waits its turn when it is not.
///
/// It replaces a libdispatch timer for the engine driver's relay wake-up, which costs three thread
/// wake-ups per armed deadline: libdispatch's manager thread is woken to take the new timer, wakes
/// again when it expires, and wakes a worker to run the block. Arming here is one system call
/// that wakes no one; expiry wakes this thread, and that is all (docs/PERFORMANCE.md, "The daemon:
/// CPU per relayed message"). Arming again replaces the deadline; a stale expiry may still fire
/// once, so `onFire` must tolerate an early or extra call.
final class WakeupTimer: Sendable {
    private let timer: Int32
    private let waiter: StoppableWait

    /// Creates the timer and starts its thread; nothing fires until `arm(after:)`.
    init(queue: DispatchQueue, onFire: @escaping @Sendable () -> Void) throws(WakeupTimerError) {
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))
        guard timer >= 0 else { throw .system(call: "timerfd_create", errno: errno) }
        do {
            waiter = try StoppableWait()
        } catch {
            Glibc.close(timer)
            switch error {
            case .pipe(let code): throw .system(call: "pipe", errno: code)
            }
        }
        // The thread keeps `self` (and so the timer open) until it returns.
        let result = DetachedThread.start(name: "relay-wakeup") { [self] in loop(queue: queue, onFire: onFire) }
        guard result == 0 else { throw .system(call: "pthread_create", errno: result) }
    }

    deinit {
        Glibc.close(timer)
    }

    /// Sets the one deadline `wait` from now (at least 1 ns), replacing any set before; any thread.
    func arm(after wait: Duration) {
        let nanoseconds = max(1, wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000)
        var value = itimerspec()
        value.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
        value.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
        _ = timerfd_settime(timer, 0, &value, nil)
    }

    /// Clears the deadline, so the timer does not fire until armed again; any thread.
    func disarm() {
        var value = itimerspec()
        _ = timerfd_settime(timer, 0, &value, nil)
    }

    /// Ends the thread; it fires no more. Later calls do nothing.
    func stop() {
        waiter.stop()
    }

    private func loop(queue: DispatchQueue, onFire: @Sendable () -> Void) {
        var expirations: UInt64 = 0
        while let events = waiter.wait(for: timer) {
            guard events & Int16(POLLIN) != 0 else { continue }
            // Clears the expiry; EAGAIN (re-armed meanwhile) just means nothing is due yet.
            guard Glibc.read(timer, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size else { continue }
            queue.sync { onFire() }
        }
    }
}

/// Why a wake-up timer could not start.
enum WakeupTimerError: Error, Equatable {
    /// A system call failed with `errno`.
    case system(call: String, errno: Int32)
}
