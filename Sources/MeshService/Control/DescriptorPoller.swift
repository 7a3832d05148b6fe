import ControlProtocol
import Dispatch
import Glibc
import PosixThread
import Synchronization

/// Watches the control socket's descriptors with `poll` on one thread of its own and runs their
/// handlers on the server's queue: what libdispatch's read and write sources did, without its
/// epoll bookkeeping, which crashed the daemon ("Source finalized twice" on its manager thread
/// while control clients hung up, seen in the BlueZ outage scenario; libdispatch issues #833, #949).
///
/// A source behaves like a dispatch source: created suspended, level-triggered, its handler never
/// runs twice at once and is not called again until it returned, `suspend`/`resume` count, and its
/// cancel handler runs once on the queue, after the poll thread stopped looking at the descriptor,
/// so the cancel handler may close it.
final class DescriptorPoller: Sendable {
    /// What `poll` waits for on a source's descriptor.
    enum Interest: Sendable {
        case readable
        case writable
    }

    /// One source's bookkeeping; only under `state`'s lock.
    struct Entry {
        let fd: Int32
        let interest: Interest
        let queue: DispatchQueue
        let handler: @Sendable () -> Void
        let cancelHandler: @Sendable () -> Void
        var suspendCount = 1
        var handlerPending = false
        var cancelled = false
    }

    struct State {
        var entries: [UInt64: Entry] = [:]
        var lastToken: UInt64 = 0
        var threadStarted = false
        var stopped = false
    }

    private let state = Mutex(State())
    /// The wake pipe: `wakeFD` is polled, `wakeWriteFD` written to when a source changes.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let name: String

    /// Creates the poller; its thread starts with the first source. Fails only without a pipe.
    init(name: String) throws(UnixSocketError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .system(call: "pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeFD = ends[0]
        wakeWriteFD = ends[1]
        self.name = name
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// A new source on `fd`, suspended: `resume()` starts it.
    func makeSource(fd: Int32, interest: Interest, queue: DispatchQueue, handler: @escaping @Sendable () -> Void,
                    cancelHandler: @escaping @Sendable () -> Void) -> PolledSource {
        let (token, startThread) = state.withLock { state -> (UInt64, Bool) in
            state.lastToken += 1
            state.entries[state.lastToken] = Entry(fd: fd, interest: interest, queue: queue, handler: handler,
                                                   cancelHandler: cancelHandler)
            defer { state.threadStarted = true }
            return (state.lastToken, !state.threadStarted)
        }
        if startThread {
            let started = DetachedThread.start(name: name) { [self] in run() }
            if started != 0 { state.withLock { $0.threadStarted = false } }
        }
        return PolledSource(poller: self, token: token, fd: fd)
    }

    /// Ends the thread once every source is cancelled; sources made later start it again.
    func stop() {
        state.withLock { $0.stopped = true }
        wake()
    }

    func update(_ token: UInt64, _ change: (inout Entry) -> Void) {
        state.withLock { state in
            guard var entry = state.entries[token] else { return }
            change(&entry)
            state.entries[token] = entry
        }
        wake()
    }

    private func wake() {
        // A full pipe already wakes the thread: a failed write loses nothing.
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)
    }

    /// The poll thread: sends the cancel handlers of cancelled sources, polls the active ones
    /// and hands each ready one's handler to its queue.
    private func run() {
        var fds: [pollfd] = []
        var tokens: [UInt64] = []
        while true {
            let (finished, cancels) = state.withLock { state -> (Bool, [Entry]) in
                let done = state.entries.values.filter { $0.cancelled && !$0.handlerPending }
                state.entries = state.entries.filter { !($0.value.cancelled && !$0.value.handlerPending) }
                fds.removeAll(keepingCapacity: true)
                tokens.removeAll(keepingCapacity: true)
                for (token, entry) in state.entries where entry.suspendCount == 0 && !entry.handlerPending && !entry.cancelled {
                    let events = entry.interest == .readable ? POLLIN : POLLOUT
                    fds.append(pollfd(fd: entry.fd, events: Int16(events), revents: 0))
                    tokens.append(token)
                }
                let finished = state.stopped && state.entries.isEmpty
                if finished { state.threadStarted = false; state.stopped = false }
                return (finished, done)
            }
            for entry in cancels { entry.queue.async(execute: entry.cancelHandler) }
            if finished { return }
            fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
            let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[fds.count - 1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 256)
                while read(wakeFD, &drained, drained.count) > 0 {}
            }
            for index in 0..<tokens.count where fds[index].revents != 0 {
                let token = tokens[index]
                let entry = state.withLock { state -> Entry? in
                    guard var entry = state.entries[token], !entry.cancelled, entry.suspendCount == 0 else { return nil }
                    entry.handlerPending = true
                    state.entries[token] = entry
                    return entry
                }
                guard let entry else { continue }
                entry.queue.async { [self] in
                    let run = state.withLock { $0.entries[token].map { !$0.cancelled } ?? false }
                    if run { entry.handler() }
                    update(token) { $0.handlerPending = false }
                }
            }
        }
    }
}

/// One watched descriptor of a `DescriptorPoller`; the subset of `DispatchSourceRead` and
/// `DispatchSourceWrite` the control server uses.
final class PolledSource: Sendable {
    private let poller: DescriptorPoller
    private let token: UInt64
    /// The descriptor watched (`DispatchSource.handle`).
    let handle: Int32

    init(poller: DescriptorPoller, token: UInt64, fd: Int32) {
        self.poller = poller
        self.token = token
        handle = fd
    }

    /// Lets the handler run when the descriptor is ready (undoes one `suspend`, or the initial one).
    func resume() { poller.update(token) { $0.suspendCount -= 1 } }

    /// Holds the handler until the matching `resume`.
    func suspend() { poller.update(token) { $0.suspendCount += 1 } }

    /// Stops the source for good; the cancel handler runs on the queue once the poll thread let go.
    func cancel() { poller.update(token) { $0.cancelled = true } }
}
