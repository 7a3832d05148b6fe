/// What LAN discovery has seen and done (the `announcements_*` and `discovery_*` counters of the
/// `transport` group in `stats`).
public struct LANDiscoveryCounters: Equatable, Sendable {
    /// Announcements sent to the group.
    public var announcementsSent: UInt64 = 0
    /// Datagrams read from the group.
    public var announcementsReceived: UInt64 = 0
    /// Not exactly 23 bytes, an unknown version byte, or port 0.
    public var announcementsMalformed: UInt64 = 0
    /// From outside the interface's subnet or link-local addresses, forwarded (TTL other than 1, hop
    /// limit other than 255), or our own.
    public var announcementsRejected: UInt64 = 0
    /// From another mesh (another service UUID).
    public var announcementsForeign: UInt64 = 0
    /// Dropped by the per-source rate limit, as a tag dialled or linked at another address, or because
    /// every announcer slot is taken by a dialled or linked one.
    public var announcementsLimited: UInt64 = 0
    /// Announcers dialled.
    public var discoveryDials: UInt64 = 0
    /// Dials that had no link within the dial timeout (the announcer is held off).
    public var discoveryFailures: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
