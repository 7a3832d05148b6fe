import CDBus
import Dispatch
import Glibc
import PosixThread
import Synchronization

/// The one thread that owns a D-Bus connection.
///
/// It polls the connection's sockets (handed over by libdbus through watch functions), a wake-up
/// pipe and its timers, and runs every job posted with ``post(_:)`` in order. Nothing on it blocks:
/// method calls are pending calls whose timeouts libdbus registers through the timeout functions.
///
/// Only ``post(_:)``, ``stop(final:)`` and ``isCurrent`` may be called from any thread. Everything
/// else the loop keeps (libdbus watches and timeouts, timers, jobs for the next round) lives in a
/// ``DBusLoopBound`` box: touching it off the loop thread stops the process.
public final class DBusEventLoop: Sendable {
    private struct Timer { let id: UInt64; let deadline: UInt64; let job: () -> Void }

    /// What only the loop thread touches; reached through ``local``, which checks the thread.
    private final class LoopState {
        var watches: [OpaquePointer] = []
        var timeouts: [OpaquePointer: UInt64] = [:]
        var timers: [Timer] = []
        var localJobs: [() -> Void] = []
        var nextTimerID: UInt64 = 1
        var afterIO: (() -> Void)?
    }

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let running = Atomic<Bool>(true)
    /// The thread running the loop, for ``isCurrent`` and every ``DBusLoopBound`` of this loop.
    let identity: LoopThreadIdentity
    private let confined: DBusLoopBound<LoopState>

    /// The loop-thread state; stops the process off the loop thread.
    private var local: LoopState { confined.value }

    /// Called on the loop thread after each wake-up to dispatch queued messages. Loop thread only.
    public var afterIO: (() -> Void)? {
        get { local.afterIO }
        set { local.afterIO = newValue }
    }

    /// Creates the loop; it does not run until ``start(name:)``.
    public init() throws(DBusError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .connectionFailed("pipe: errno \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        let identity = LoopThreadIdentity()
        self.identity = identity
        confined = DBusLoopBound(LoopState(), owner: identity, label: "DBusEventLoop")
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the thread.
    public func start(name: String) {
        let result = DetachedThread.start(name: name) { [self] in
            identity.claim()
            run()
            identity.release()
        }
        precondition(result == 0, "cannot start the D-Bus thread \(name): error \(result)")  // as Foundation's Thread would stop
    }

    /// Asks the thread to finish after its current job; `final` runs on it last.
    public func stop(final: @escaping @Sendable () -> Void) {
        post { [self] in final(); running.store(false, ordering: .releasing) }
    }

    /// Whether the caller runs on the loop thread.
    public var isCurrent: Bool { identity.isCurrent }

    /// Runs `job` on the loop thread, after the jobs posted before it. Callable from any thread.
    public func post(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        wake()
    }

    /// Runs `job` on the loop thread in its next round, after the current dispatch. Loop thread only.
    public func later(_ job: @escaping () -> Void) { local.localJobs.append(job) }

    /// Runs `job` on the loop thread after `seconds`; returns an ID for ``cancelTimer(_:)``. Loop thread only.
    @discardableResult
    public func after(_ seconds: Double, _ job: @escaping () -> Void) -> UInt64 {
        let local = local
        let id = local.nextTimerID
        local.nextTimerID += 1
        local.timers.append(Timer(id: id, deadline: Self.now() + UInt64(max(0, seconds) * 1e9), job: job))
        return id
    }

    /// Cancels a timer that has not fired. Loop thread only.
    public func cancelTimer(_ id: UInt64) { local.timers.removeAll { $0.id == id } }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: libdbus watch and timeout bookkeeping (called by libdbus on the loop thread)

    func addWatch(_ watch: OpaquePointer) { local.watches.append(watch) }
    func removeWatch(_ watch: OpaquePointer) { local.watches.removeAll { $0 == watch } }
    func addTimeout(_ timeout: OpaquePointer) {
        local.timeouts[timeout] = dbus_timeout_get_enabled(timeout) != 0
            ? Self.now() + UInt64(dbus_timeout_get_interval(timeout)) * 1_000_000 : nil
    }
    func removeTimeout(_ timeout: OpaquePointer) { local.timeouts[timeout] = nil }

    /// Hands a connection's sockets and timeouts to this loop. Loop thread only.
    func adopt(_ connection: OpaquePointer) -> Bool {
        confined.preconditionOnLoop()
        let me = Unmanaged.passUnretained(self).toOpaque()
        let watchesOK = dbus_connection_set_watch_functions(connection, { watch, data in
            guard let watch, let data else { return 0 }
            Unmanaged<DBusEventLoop>.fromOpaque(data).takeUnretainedValue().addWatch(watch)
            return 1
        }, { watch, data in
            guard let watch, let data else { return }
            Unmanaged<DBusEventLoop>.fromOpaque(data).takeUnretainedValue().removeWatch(watch)
        }, { _, _ in }, me, nil)
        let timeoutsOK = dbus_connection_set_timeout_functions(connection, { timeout, data in
            guard let timeout, let data else { return 0 }
            Unmanaged<DBusEventLoop>.fromOpaque(data).takeUnretainedValue().addTimeout(timeout)
            return 1
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<DBusEventLoop>.fromOpaque(data).takeUnretainedValue().removeTimeout(timeout)
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<DBusEventLoop>.fromOpaque(data).takeUnretainedValue().addTimeout(timeout)
        }, me, nil)
        return watchesOK != 0 && timeoutsOK != 0
    }

    /// Releases a connection's watches before it closes. Loop thread only.
    func release(_ connection: OpaquePointer) {
        _ = dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        _ = dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        local.watches.removeAll()
        local.timeouts.removeAll()
    }

    // MARK: the loop

    private func run() {
        while running.load(ordering: .acquiring) {
            let pending = jobs.withLock { list -> [@Sendable () -> Void] in
                defer { list.removeAll() }
                return list
            }
            for job in pending { job() }
            local.afterIO?()
            while !local.localJobs.isEmpty {
                let round = local.localJobs
                local.localJobs.removeAll()
                for job in round { job() }
                local.afterIO?()
            }
            guard running.load(ordering: .acquiring) else { break }
            pollOnce()
            fireExpired()
        }
    }

    private func pollOnce() {
        let local = local
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var owners: [OpaquePointer?] = [nil]
        for watch in local.watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & 1 != 0 { events |= Int16(POLLIN) }
            if flags & 2 != 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            owners.append(watch)
        }
        let now = Self.now()
        var nearest = now + 1_000_000_000
        for deadline in local.timeouts.values { nearest = min(nearest, deadline) }
        for timer in local.timers { nearest = min(nearest, timer.deadline) }
        let waitMs = Int32(clamping: nearest > now ? (nearest - now + 999_999) / 1_000_000 : 0)
        let ready = poll(&fds, nfds_t(fds.count), waitMs)
        guard ready > 0 else { return }
        if fds[0].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &sink, sink.count) > 0 {}
        }
        for index in 1..<fds.count where fds[index].revents != 0 {
            guard let watch = owners[index], local.watches.contains(watch) else { continue }
            var flags: UInt32 = 0
            let revents = Int32(fds[index].revents)
            if revents & Int32(POLLIN) != 0 { flags |= 1 }
            if revents & Int32(POLLOUT) != 0 { flags |= 2 }
            if revents & Int32(POLLERR) != 0 { flags |= 4 }
            if revents & Int32(POLLHUP) != 0 { flags |= 8 }
            _ = dbus_watch_handle(watch, flags)
        }
    }

    private func fireExpired() {
        let local = local
        let now = Self.now()
        for (timeout, deadline) in local.timeouts where deadline <= now {
            guard local.timeouts[timeout] != nil else { continue }
            local.timeouts[timeout] = now + UInt64(dbus_timeout_get_interval(timeout)) * 1_000_000
            _ = dbus_timeout_handle(timeout)
        }
        let due = local.timers.filter { $0.deadline <= now }
        guard !due.isEmpty else { return }
        local.timers.removeAll { $0.deadline <= now }
        for timer in due.sorted(by: { $0.deadline < $1.deadline }) { timer.job() }
    }
}
