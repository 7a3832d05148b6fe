/// A transport behind a port of its own: the links it numbers reach the node as links of ``port``,
/// and what the node sends on them goes back to it under its own numbers.
///
/// Every transport numbers its links on ``PortID/first``; a node that runs several transports at
/// once wraps each in a `PortedTransport` with a different port, so that two transports' links of
/// the same number never meet in the engine, its inbox or its logs.
public final class PortedTransport: MeshTransport {
    /// The port this transport's links carry.
    public let port: PortID
    /// The transport, which numbers its own links.
    public let transport: any MeshTransport

    /// Puts `transport` behind `port`.
    public init(_ transport: any MeshTransport, port: PortID) {
        self.transport = transport
        self.port = port
    }

    /// Starts the transport; every link in its events carries ``port``.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        let port = port
        try transport.start { event in handler(event.on(port)) }
    }

    /// Sends on one of this port's links; a link of another port is not this transport's (`.gone`).
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        guard link.port == port else { return .gone }
        return transport.send(frame, on: link.on(.first))
    }

    /// Closes one of this port's links; a link of another port is left alone.
    public func disconnect(_ link: LinkID) {
        guard link.port == port else { return }
        transport.disconnect(link.on(.first))
    }

    /// Stops the transport.
    public func stop() { transport.stop() }

    /// Passes a keyed link of this port on to the transport.
    public func linkKeyed(_ link: LinkID) {
        guard link.port == port else { return }
        transport.linkKeyed(link.on(.first))
    }

    /// The transport's own status.
    public var status: TransportStatus { transport.status }
}

extension TransportEvent {
    /// The same event with its link moved to `port` (the link's number unchanged).
    public func on(_ port: PortID) -> TransportEvent {
        switch self {
        case .linkUp(var info):
            info.id = info.id.on(port)
            return .linkUp(info)
        case .linkDown(let link, let reason): return .linkDown(link.on(port), reason: reason)
        case .mtuChanged(let link, let mtu): return .mtuChanged(link.on(port), mtu: mtu)
        case .rssiChanged(let link, let rssi): return .rssiChanged(link.on(port), rssi: rssi)
        case .frameReceived(let link, let frame): return .frameReceived(link.on(port), frame)
        }
    }
}
