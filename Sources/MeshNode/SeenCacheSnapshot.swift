import Flooding
import MeshProtocol

/// The seen cache on the wall clock, so a node that restarts still drops what it saw before
/// (docs/PROTOCOL.md Part C, "Seen cache"). Times are milliseconds since the Unix epoch.
public struct SeenCacheSnapshot: Equatable, Sendable {
    /// One remembered message ID.
    public struct Entry: Equatable, Sendable {
        /// The message ID.
        public var messageID: MessageID
        /// When the node forgets it.
        public var expiresAt: UInt64

        /// Creates an entry.
        public init(messageID: MessageID, expiresAt: UInt64) {
            self.messageID = messageID
            self.expiresAt = expiresAt
        }
    }

    /// Since when the cache held every ID it inserted (the freshness rule's `vouched_since`).
    public var vouchedSince: UInt64
    /// The IDs, oldest first.
    public var entries: [Entry]

    /// Creates a snapshot.
    public init(vouchedSince: UInt64, entries: [Entry]) {
        self.vouchedSince = vouchedSince
        self.entries = entries
    }
}

extension MeshEngine {
    /// The seen cache at `now`, for keeping across a restart.
    public func seenCacheSnapshot(now: Duration) -> SeenCacheSnapshot {
        SeenCacheSnapshot(
            vouchedSince: wallTime(of: router.seen.vouchedSince(now: now)),
            entries: router.seen.records(now: now).map {
                SeenCacheSnapshot.Entry(messageID: $0.messageID, expiresAt: wallTime(of: $0.expiresAt))
            })
    }

    /// Fills the (still empty) seen cache from a snapshot an earlier run of this node kept;
    /// entries that have expired by the wall clock are skipped.
    public func restoreSeenCache(_ snapshot: SeenCacheSnapshot, now: Duration) {
        router.restoreSeen(
            snapshot.entries.map { SeenCache.Record(messageID: $0.messageID, expiresAt: engineTime(ofWall: $0.expiresAt)) },
            vouchedSince: engineTime(ofWall: snapshot.vouchedSince), now: now)
    }

    /// Keeps every ID the seen cache takes in from now on, for ``takeNewlySeen()`` (a journal).
    public func keepNewlySeen() {
        router.keepNewlySeen()
    }

    /// The IDs the seen cache took in since the last call, oldest first, expiries on the wall
    /// clock; empty unless ``keepNewlySeen()`` ran.
    public func takeNewlySeen() -> [SeenCacheSnapshot.Entry] {
        router.takeNewlySeen().map { SeenCacheSnapshot.Entry(messageID: $0.messageID, expiresAt: wallTime(of: $0.expiresAt)) }
    }

    /// The wall-clock time, in milliseconds since the Unix epoch, of an engine time.
    func wallTime(of time: Duration) -> UInt64 { self.time.wallTime(of: time) }

    /// The engine time of a wall-clock time in milliseconds since the Unix epoch.
    func engineTime(ofWall milliseconds: UInt64) -> Duration { time.engineTime(ofWall: milliseconds) }
}
