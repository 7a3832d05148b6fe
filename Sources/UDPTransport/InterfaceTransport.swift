import Dispatch
import MeshLink
import Synchronization

/// A UDP transport on a network interface that waits for the interface: until the interface has
/// an IPv4 address or an IPv6 link-local one (plugged in, up) it reports `waiting for eth0: ...
/// (retry in 4 s)` and tries again (``InterfaceWait``), so a missing LAN never stops a node's other
/// transports; once found, the transport `make` builds for those addresses runs, and every call
/// goes to it. While it runs, the addresses are read again every ``InterfaceChange/interval``: a
/// change the running transport can follow (``InterfaceFollowing``) is passed to it, and a replaced
/// interface gets a new transport (its links reported down first).
public final class InterfaceTransport: MeshTransport {
    private struct State {
        var handler: (@Sendable (TransportEvent) -> Void)?
        var running: (any MeshTransport)?
        var address: InterfaceAddress?
        var wait = InterfaceWait()
        var retryAt: ContinuousClock.Instant?
        var timer: DispatchSourceTimer?
        var watch: DispatchSourceTimer?
        var upLinks: Set<LinkID> = []
        var stopped = false
    }

    /// The interface's name, such as `eth0`.
    public let interface: String
    private let lookup: @Sendable (String) throws(InterfaceAddressError) -> InterfaceAddress
    private let make: @Sendable (InterfaceAddress) throws -> any MeshTransport
    private let state = Mutex(State())
    private let queue: DispatchQueue

    /// Creates the transport; `make` builds the transport for the interface's address once it has
    /// one (`lookup`: the kernel's, ``InterfaceAddress/lookup(_:)``).
    public init(
        interface: String, lookup: @escaping @Sendable (String) throws(InterfaceAddressError) -> InterfaceAddress = InterfaceAddress.lookup,
        make: @escaping @Sendable (InterfaceAddress) throws -> any MeshTransport
    ) {
        self.interface = interface
        self.lookup = lookup
        self.make = make
        queue = DispatchQueue(label: "meshnode.interface.\(interface)")
    }

    /// Tries to open the interface now and, while it cannot, again on a timer; never throws for a
    /// missing interface.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        state.withLock { $0.handler = handler }
        queue.sync { attempt() }
    }

    /// Tries again now rather than when the timer says (tests).
    package func retryNow() { queue.sync { attempt() } }

    /// Reads the addresses again now rather than when the timer says (tests).
    package func checkAddressesNow() { queue.sync { checkAddresses() } }

    /// One attempt, on `queue`.
    private func attempt() {
        guard let handler = state.withLock({ $0.stopped || $0.running != nil ? nil : $0.handler }) else { return }
        do {
            let address = try lookup(interface)
            let transport = try make(address)
            try transport.start { [weak self] event in
                self?.track(event)
                handler(event)
            }
            let stopped = state.withLock { state in
                if !state.stopped {
                    state.running = transport
                    state.address = address
                    state.retryAt = nil
                    if state.watch == nil {
                        let watch = DispatchSource.makeTimerSource(queue: queue)
                        let interval = Int(InterfaceChange.interval.components.seconds)
                        watch.schedule(deadline: .now() + .seconds(interval), repeating: .seconds(interval), leeway: .milliseconds(500))
                        watch.setEventHandler { [weak self] in self?.checkAddresses() }
                        state.watch = watch
                        watch.resume()
                    }
                }
                return state.stopped
            }
            if stopped { transport.stop() }
        } catch {
            let reason = "\(error)"
            state.withLock { state in
                let delay = state.wait.failed(reason)
                state.retryAt = .now + delay
                state.timer?.cancel()
                state.timer = nil
                guard !state.stopped else { return }
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + .milliseconds(Int(delay.components.seconds * 1000)))
                timer.setEventHandler { [weak self] in self?.attempt() }
                state.timer = timer
                timer.resume()
            }
        }
    }

    /// Keeps the links up now, to report them down if the transport is made anew.
    private func track(_ event: TransportEvent) {
        switch event {
        case .linkUp(let info): state.withLock { _ = $0.upLinks.insert(info.id) }
        case .linkDown(let id, _): state.withLock { _ = $0.upLinks.remove(id) }
        default: break
        }
    }

    /// Reads the interface's addresses and does what ``InterfaceChange`` says; on `queue`.
    private func checkAddresses() {
        guard let (running, address) = state.withLock({ state in
            state.stopped ? nil : state.running.flatMap { running in state.address.map { (running, $0) } }
        }) else { return }
        let now = try? lookup(interface)
        var change = InterfaceChange.decide(running: address, now: now)
        if case .follow(let new) = change {
            if let following = running as? any InterfaceFollowing {
                following.follow(new)
                state.withLock { $0.address = new }
            } else {
                change = .restart
            }
        }
        guard change == .restart else { return }
        running.stop()
        let (handler, links) = state.withLock { state in
            state.running = nil
            state.address = nil
            defer { state.upLinks = [] }
            return (state.handler, state.upLinks.sorted())
        }
        for link in links { handler?(.linkDown(link, reason: "interface \(interface) replaced")) }
        attempt()
    }

    /// Sends on the running transport; `.gone` while waiting.
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        state.withLock { $0.running }?.send(frame, on: link) ?? .gone
    }

    /// Closes a link of the running transport.
    public func disconnect(_ link: LinkID) { state.withLock { $0.running }?.disconnect(link) }

    /// Passes a keyed link on to the running transport.
    public func linkKeyed(_ link: LinkID) { state.withLock { $0.running }?.linkKeyed(link) }

    /// Stops waiting, and the running transport.
    public func stop() {
        let running = state.withLock { state in
            state.stopped = true
            state.timer?.cancel()
            state.timer = nil
            state.watch?.cancel()
            state.watch = nil
            return state.running
        }
        running?.stop()
    }

    /// The running transport's counters and `running on eth0 (192.168.1.7, fe80::1)` (with what the running
    /// transport adds, such as `, no discovery: <why>`), or
    /// `waiting for eth0: <why> (retry in 4 s)`.
    public var status: TransportStatus {
        let (running, address, reason, retryAt) = state.withLock { ($0.running, $0.address, $0.wait.reason, $0.retryAt) }
        if let running, let address {
            let status = running.status
            let note = status.summary.map { ", \($0)" } ?? ""
            return TransportStatus(counters: status.counters, summary: "running on \(interface) (\(address.summary))" + note)
        }
        let retry = retryAt.map { " (retry in \(max(1, Int(($0 - .now).components.seconds) + 1)) s)" } ?? ""
        return TransportStatus(summary: "waiting for \(interface)" + (reason.map { ": \($0)" } ?? "") + retry)
    }
}

/// A transport on an interface that can take new addresses of it on the sockets it has (which
/// sources it reads, which addresses are its own, which family it announces on).
public protocol InterfaceFollowing: AnyObject, Sendable {
    /// Takes the interface's addresses now.
    func follow(_ address: InterfaceAddress)
}
