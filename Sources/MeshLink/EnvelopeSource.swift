/// Where an envelope entered the node: a link of one of its transports, or a port that is no link.
///
/// The MQTT bridge is such a port (docs/PROTOCOL.md Part F): what comes down from the broker has a
/// sender (the gateway that published it) but no link, so it teaches nothing about a link.
public enum EnvelopeSource: Hashable, Sendable, CustomStringConvertible {
    /// A transport's link.
    case link(LinkID)
    /// The MQTT bridge: envelopes the broker carried from another island's gateway.
    case bridge

    /// The link, when the envelope came on one.
    public var link: LinkID? {
        if case .link(let link) = self { link } else { nil }
    }

    /// The link's `link#N`, or `bridge`, for logs.
    public var description: String {
        switch self {
        case .link(let link): link.description
        case .bridge: "bridge"
        }
    }
}
