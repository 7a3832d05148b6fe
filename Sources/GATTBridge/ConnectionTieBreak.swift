/// Who dials first when two nodes discover each other at the same time.
///
/// BlueZ keeps one LE link per pair of addresses; if both ends call Device1.Connect at once, one
/// attempt can hang until its timeout. The node with the lower address dials almost at once, the
/// other waits long enough for that link to appear and then only dials if it did not.
public enum ConnectionTieBreak {
    /// Seconds the lower address waits, at most.
    public static let leaderWindow = 2.0
    /// Seconds the higher address waits, at least; plus up to ``followerJitter``.
    public static let followerDelay = 4.0
    /// Extra random wait for the higher address.
    public static let followerJitter = 2.0

    /// The hold before dialing `peer`; `unit` is a random number in 0..<1. Unknown addresses count as higher.
    public static func hold(own: String?, peer: String, unit: Double) -> Double {
        let u = min(max(unit, 0), 1)
        guard let own, own < peer else { return followerDelay + followerJitter * u }
        return leaderWindow * u
    }
}
