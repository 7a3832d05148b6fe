import MeshConfig
import MeshLink
import UDPTransport

extension UDPTransportConfiguration {
    /// Creates settings from the `[udp]` section of the daemon configuration.
    public init(_ config: UDPSettings) throws(UDPEndpointError) {
        self.init(
            bind: try UDPEndpoint(host: config.bind, port: config.port), neighbours: config.neighbours,
            mtu: config.mtu, loss: config.loss, keepaliveInterval: config.keepaliveInterval,
            linkTimeout: config.linkTimeout, connectInterval: config.connectInterval, maxLinks: config.maxLinks)
    }
}
