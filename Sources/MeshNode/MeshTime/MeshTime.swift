import Flooding
import MeshProtocol

/// The engine's time: the local wall clock at engine time zero, and mesh time learned from the
/// neighbours (docs/PROTOCOL.md Part C, "Mesh time"), as one value that owns both.
struct MeshTime {
    /// Milliseconds since the Unix epoch at engine time zero.
    let wallClockAtZero: UInt64
    /// Mesh time learned from the neighbours.
    private(set) var clock = MeshClock()

    /// Creates the engine's time with the wall clock at engine time zero.
    init(wallClockAtZero: UInt64) { self.wallClockAtZero = wallClockAtZero }

    /// The local wall clock at engine time `now`, in milliseconds since the Unix epoch.
    func localWall(at now: Duration) -> UInt64 {
        let (seconds, attoseconds) = now.components
        return wallClockAtZero &+ UInt64(max(0, seconds)) &* 1000 &+ UInt64(max(0, attoseconds) / 1_000_000_000_000_000)
    }

    /// Mesh time at `now`: what this node stamps on what it sends.
    func timestamp(at now: Duration) -> UInt64 { clock.meshTime(localWall: localWall(at: now)) }

    /// The wall-clock time, in milliseconds since the Unix epoch, of an engine time (which may
    /// lie before the engine started).
    func wallTime(of time: Duration) -> UInt64 {
        let (seconds, attoseconds) = time.components
        let milliseconds = seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
        return UInt64(clamping: Int64(clamping: wallClockAtZero) &+ milliseconds)
    }

    /// The engine time of a wall-clock time in milliseconds since the Unix epoch.
    func engineTime(ofWall milliseconds: UInt64) -> Duration {
        .milliseconds(Int64(clamping: milliseconds) &- Int64(clamping: wallClockAtZero))
    }

    /// Counts a neighbour's own authenticated timestamp (hops 0, origin = the neighbour) as its
    /// vote on mesh time; returns a first or large change of the estimate, to report.
    mutating func hear(_ envelope: Envelope, from sender: NodeID, now: Duration) -> MeshClockChange? {
        guard envelope.origin == sender, envelope.hops == 0 else { return nil }
        return clock.observe(sender, timestamp: envelope.timestamp, localWall: localWall(at: now), now: now)
    }

    /// Replaces the clock (tests that start a node with another clock's parameters).
    mutating func replace(_ clock: MeshClock) { self.clock = clock }
}
