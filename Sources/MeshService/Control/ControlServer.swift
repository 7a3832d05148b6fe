import ControlProtocol
import Dispatch
import Glibc
import Synchronization

/// The control socket: JSON lines over a Unix stream socket (docs/CONTROL.md).
///
/// All socket work happens on one serial queue with non-blocking I/O; a poll thread of its own
/// (`DescriptorPoller`, not libdispatch's sources) says when a socket is ready. Node calls are
/// made from that queue. A client that sends garbage, oversized or unfinished
/// lines, or reads too slowly, gets an error reply or is dropped; other clients carry on.
public final class ControlServer: Sendable {
    /// What only the server queue may touch; every access is checked (`QueueConfined`).
    struct ServerState {
        var listenSource: PolledSource?
        /// Watches the listening socket and every client's; made by the first `start`.
        var poller: DescriptorPoller?
        var clients: [UInt64: ControlSession] = [:]
        var lastClientID: UInt64 = 0
        var running = false
        var acceptPaused = false
    }

    /// The configuration in force.
    public let configuration: ControlServerConfiguration
    let node: any NodeControlling
    let logger: DaemonLogger?
    let handler: ControlRequestHandler
    private let counterStore = Mutex(ControlServerCounters())
    private let confined = QueueConfined(ServerState(), queue: DispatchQueue(label: "meshnode.control"))

    /// The serial queue that owns every socket and client.
    var queue: DispatchQueue { confined.queue }
    private var poller: DescriptorPoller? {
        get { confined.value.poller }
        _modify { yield &confined.value.poller }
    }
    private var listenSource: PolledSource? {
        get { confined.value.listenSource }
        _modify { yield &confined.value.listenSource }
    }
    /// Connected clients by ID; only on `queue`.
    var clients: [UInt64: ControlSession] {
        get { confined.value.clients }
        _modify { yield &confined.value.clients }
    }
    private var lastClientID: UInt64 {
        get { confined.value.lastClientID }
        _modify { yield &confined.value.lastClientID }
    }
    private var running: Bool {
        get { confined.value.running }
        _modify { yield &confined.value.running }
    }
    private var acceptPaused: Bool {
        get { confined.value.acceptPaused }
        _modify { yield &confined.value.acceptPaused }
    }

    /// Creates a server; nothing is opened until `start`.
    public init(configuration: ControlServerConfiguration, node: any NodeControlling, logger: DaemonLogger? = nil) {
        self.configuration = configuration
        self.node = node
        self.logger = logger
        handler = ControlRequestHandler(node: node)
    }

    deinit {
        let state = confined.valueInOwnersDeinit()
        if state.acceptPaused { state.listenSource?.resume() }
        state.listenSource?.cancel()
        for client in state.clients.values { client.cancelSources() }
        state.poller?.stop()
    }

    /// Creates the socket (mode 0660, the configured group) and starts accepting.
    public func start() throws(UnixSocketError) {
        let result: Result<Void, UnixSocketError> = onQueue {
            guard !running else { return .success(()) }
            do throws(UnixSocketError) {
                let poller: DescriptorPoller
                if let existing = self.poller { poller = existing } else { poller = try DescriptorPoller(name: "meshnode-control") }
                self.poller = poller
                let (fd, warning) = try ControlSocketFile.listen(path: configuration.socketPath, group: configuration.group)
                if let warning { logger?.warning(.controlReady, warning) }
                let source = poller.makeSource(fd: fd, interest: .readable, queue: queue,
                                               handler: { [weak self] in self?.acceptClients() },
                                               cancelHandler: { close(fd) })
                source.resume()
                listenSource = source
                running = true
                logger?.info(.controlReady, "control socket listening on \(configuration.socketPath)")
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Closes every client and the socket, and removes the socket file.
    public func stop() {
        onQueue {
            guard running else { return }
            running = false
            if acceptPaused { listenSource?.resume() }
            acceptPaused = false
            listenSource?.cancel()
            listenSource = nil
            for id in clients.keys.sorted() { drop(id) }
            poller?.stop()
            unlink(configuration.socketPath)
        }
    }

    /// The counters so far; safe from any thread.
    public func counters() -> ControlServerCounters { counterStore.withLock { $0 } }

    /// How many clients are connected now.
    public func clientCount() -> Int { onQueue { clients.count } }

    /// The connected clients' descriptors, for tests that check they get closed.
    func clientDescriptors() -> [Int32] { onQueue { clients.values.map(\.fd) } }

    func count(_ update: (inout ControlServerCounters) -> Void) { counterStore.withLock { update(&$0) } }

    /// Runs `body` on the server queue, inline when already there.
    private func onQueue<T>(_ body: () -> T) -> T {
        confined.isOnQueue ? body() : queue.sync(execute: body)
    }

    private func acceptClients() {
        guard let listenSource, let poller else { return }
        for _ in 0..<64 {
            let fd = accept(Int32(listenSource.handle), nil, nil)
            if fd < 0 {
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED { return }
                count { $0.ioErrors += 1 }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM { pauseAccepting() }
                return
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            guard clients.count < configuration.maxClients else {
                count { $0.connectionsRejected += 1 }
                let line = ControlJSON.errorLine(id: nil, code: .tooManyClients, message: "too many control clients")
                _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            lastClientID += 1
            count { $0.connectionsAccepted += 1 }
            clients[lastClientID] = makeClient(id: lastClientID, fd: fd, poller: poller)
        }
    }

    /// Out of descriptors: stop accepting for a second instead of spinning on a ready socket.
    private func pauseAccepting() {
        guard let source = listenSource, !acceptPaused else { return }
        source.suspend()
        acceptPaused = true
        queue.asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, self.acceptPaused else { return }
            self.acceptPaused = false
            self.listenSource?.resume()
        }
    }
}
