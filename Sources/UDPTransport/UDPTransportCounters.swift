/// What a UDP transport has seen and done since it started.
public struct UDPTransportCounters: Equatable, Sendable {
    /// Datagrams read from the socket.
    public var datagramsReceived: UInt64 = 0
    /// Datagrams handed to the socket.
    public var datagramsSent: UInt64 = 0
    /// Frames delivered to the node.
    public var framesReceived: UInt64 = 0
    /// Frames handed to the socket.
    public var framesSent: UInt64 = 0
    /// Frames dropped on purpose by the configured loss.
    public var framesLost: UInt64 = 0
    /// Datagrams from a non-loopback source, dropped.
    public var rejectedSource: UInt64 = 0
    /// Datagrams longer than header plus the largest MTU, dropped.
    public var oversizedDatagrams: UInt64 = 0
    /// Datagrams shorter than the header, dropped.
    public var truncatedDatagrams: UInt64 = 0
    /// Datagrams with an undefined type byte, dropped.
    public var unknownTypes: UInt64 = 0
    /// Datagrams with bad flags or a body that does not fit their type, dropped.
    public var malformedDatagrams: UInt64 = 0
    /// Datagrams for a link this side does not know (answered with close).
    public var unknownLinks: UInt64 = 0
    /// Received frames longer than the link MTU, dropped.
    public var oversizedFrames: UInt64 = 0
    /// Frames the node asked to send that exceed the link MTU (the link is closed).
    public var oversizedSends: UInt64 = 0
    /// Connects refused because `maxLinks` links were up.
    public var rejectedFull: UInt64 = 0
    /// Sends refused because the socket buffer was full.
    public var sendFull: UInt64 = 0
    /// Sends that failed with another socket error.
    public var sendErrors: UInt64 = 0
    /// Links that came up.
    public var linksUp: UInt64 = 0
    /// Links that went down.
    public var linksDown: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
