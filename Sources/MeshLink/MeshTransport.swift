/// The boundary every radio or socket sits behind: BlueZ, loopback UDP and the simulator.
///
/// A transport reports links and frames through the handler given to `start`, and sends
/// frames of at most the link's MTU. It never interprets frame contents.
public protocol MeshTransport: AnyObject, Sendable {
    /// Starts the transport; events arrive on `handler`, one at a time, in order.
    ///
    /// `handler` runs on the transport's own thread (BlueZ: the D-Bus loop thread; UDP: its socket
    /// queue), so it must never block or wait for the transport: it hands the event on and returns.
    /// The daemon's handler only enqueues into the engine driver's bounded per-link inbox.
    func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws
    /// Sends one frame on a link; never blocks. See ``SendOutcome`` for what `.sent` promises: a
    /// transport may only accept the frame here and decide on its own thread (BlueZ does).
    func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome
    /// Closes a link (for example after a handshake timeout).
    func disconnect(_ link: LinkID)
    /// Stops the transport and closes every link.
    func stop()
    /// Tells the transport that the engine completed the link's key exchange, so its slot
    /// table may prefer it over links that have none (a transport that has no such table ignores it).
    func linkKeyed(_ link: LinkID)
    /// The transport's counters and progress now; any thread.
    var status: TransportStatus { get }
}

extension MeshTransport {
    /// Does nothing: the transport keeps no slot preference.
    public func linkKeyed(_ link: LinkID) {}

    /// No counters and nothing to say: a transport that keeps neither (test stand-ins).
    public var status: TransportStatus { TransportStatus() }
}
