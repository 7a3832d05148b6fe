/// Finding the peer's message characteristic after Connect. A pure decision; time is passed in.
///
/// BlueZ can report `ServicesResolved = true` before the `InterfacesAdded` signals of the peer's GATT
/// objects reach us (seen on the emulator with five nodes: the characteristic appeared a moment after
/// the property), and it also sets the property when its discovery failed. So a resolved device
/// without our characteristic is looked at again — on every object added below it and at least every
/// ``recheckInterval`` — for up to ``grace`` seconds, within the attempt's deadline, before giving up.
public enum CharacteristicLookup {
    /// What the attempt does next.
    public enum Step: Equatable, Sendable {
        /// Services are not resolved yet: wait for `ServicesResolved`.
        case waitForServices
        /// The characteristic is known: subscribe to it.
        case subscribe(characteristic: String)
        /// Resolved, but our characteristic is not (yet) in the mirror: look again at this time.
        case recheck(at: Double)
        /// Resolved and still no characteristic after the grace or past the deadline.
        case giveUp
    }

    /// Longest wait for `ServicesResolved` after `Connect` answered, in seconds. Shorter than the whole
    /// attempt (32 s by default): after an adapter reset the connection can be one the peer no
    /// longer has, and waiting the whole attempt on it delays the retry that works (BLUEZ.md).
    public static let servicesWait = 10.0

    /// When the wait for `ServicesResolved` ends: ``servicesWait`` after Connect answered at
    /// `connectedAt`, never after the attempt's `deadline`.
    public static func servicesDeadline(connectedAt: Double, deadline: Double) -> Double {
        min(connectedAt + servicesWait, deadline)
    }

    /// Seconds between looks while waiting for the characteristic.
    public static let recheckInterval = 0.5

    /// The next step. `resolvedAt` is when services were first seen resolved without the
    /// characteristic (nil until then), `deadline` the end of the whole attempt.
    public static func step(servicesResolved: Bool, characteristic: String?, resolvedAt: Double?, now: Double,
                            grace: Double, deadline: Double) -> Step {
        guard servicesResolved else { return .waitForServices }
        if let characteristic { return .subscribe(characteristic: characteristic) }
        let end = min((resolvedAt ?? now) + grace, deadline)
        guard now < end else { return .giveUp }
        return .recheck(at: min(now + recheckInterval, end))
    }
}
