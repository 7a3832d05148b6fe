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
    /// Datagrams from a source outside loopback (or the interface's subnet and link-local addresses), dropped.
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
    /// Frames of a link that had spent its frame budget, dropped before they reach the node.
    public var framesOverBudget: UInt64 = 0
    /// Closes not sent for datagrams of unknown links, past 200 a second in all.
    public var closesWithheld: UInt64 = 0
    /// Received frames longer than the link MTU, dropped.
    public var oversizedFrames: UInt64 = 0
    /// Frames the node asked to send that exceed the link MTU (the link is closed).
    public var oversizedSends: UInt64 = 0
    /// Connects dropped unanswered because their host had sent 20 at once or more than 10 a second.
    public var connectsOverBudget: UInt64 = 0
    /// Connects refused because `maxLinks` links were up.
    public var rejectedFull: UInt64 = 0
    /// Sends refused because the socket buffer was full.
    public var sendFull: UInt64 = 0
    /// Sends that failed with another socket error.
    public var sendErrors: UInt64 = 0
    /// Challenges sent to a link's recorded address after a close or a new connect for it.
    public var challengesSent: UInt64 = 0
    /// Close or connect triggers held back because the link's last challenge went out less than a
    /// keepalive interval ago (answered or not); the link is challenged once more when it has passed.
    public var challengesSuppressed: UInt64 = 0
    /// Links kept because the peer answered "still here".
    public var challengesKept: UInt64 = 0
    /// Links dropped because the peer answered "gone" with the right challenge.
    public var challengesConfirmed: UInt64 = 0
    /// Answers that matched no outstanding challenge (forged, late or repeated), ignored.
    public var challengeMismatches: UInt64 = 0
    /// Challenges from peers answered.
    public var challengesAnswered: UInt64 = 0
    /// Unkeyed links closed to make room for a connect when every slot was taken.
    public var displacedUnkeyed: UInt64 = 0
    /// Links that came up.
    public var linksUp: UInt64 = 0
    /// Links that went down.
    public var linksDown: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
