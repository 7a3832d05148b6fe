/// Who dials first when two nodes discover each other at the same time.
///
/// BlueZ keeps one LE link per pair of addresses; if both ends call Device1.Connect at once, one
/// attempt can hang until its timeout and the connection that does form may carry no ATT for
/// half a minute (seen on the emulator: docs/BLUEZ.md, "Central side"). The node with the lower
/// address dials almost at once; the other waits until the leader's Connect, had it started within
/// its window, would have ended (``leaderWindow`` + the Connect timeout + ``followerJitter``), and
/// then only dials if no link appeared. A client without a GATT server does not advertise, so no
/// node can dial it: it always leads.
public enum ConnectionTieBreak {
    /// Seconds the lower address waits, at most.
    public static let leaderWindow = 2.0
    /// Extra random wait for the higher address, at most.
    public static let followerJitter = 2.0

    /// The least the higher address waits: the leader's window plus its whole Connect timeout.
    public static func followerDelay(connectTimeout: Double) -> Double { leaderWindow + max(0, connectTimeout) }

    /// The hold before dialing `peer`; `unit` is a random number in 0..<1, `connectTimeout` the
    /// seconds a Connect may take. Unknown addresses count as higher. `peerCanDial` is false for a
    /// client without a GATT server (it advertises nothing, so only it can dial): it waits the
    /// leader's window only, whatever the addresses.
    public static func hold(own: String?, peer: String, unit: Double, connectTimeout: Double,
                            peerCanDial: Bool = true) -> Double {
        let u = min(max(unit, 0), 1)
        let leads = !peerCanDial || own.map { $0 < peer } == true
        return leads ? leaderWindow * u : followerDelay(connectTimeout: connectTimeout) + followerJitter * u
    }
}
