import MeshCrypto

/// Which name the BlueZ advertisement carries as mesh time passes (docs/PROTOCOL.md D13): a new one
/// whenever mesh time is in another epoch than the name last given, also when the clock steps back
/// or forward (a Pi that learns mesh time from its neighbours). A value: time comes in, names go out.
struct AdvertisedNameSchedule: Sendable {
    /// A name to advertise from now on, and its epoch.
    struct Change: Equatable, Sendable {
        /// The epoch of mesh time the name belongs to.
        var epoch: UInt64
        /// The name.
        var name: String
    }

    /// The node's names.
    let names: AdvertisedName
    /// The epoch of the name last given; nil before the first.
    private(set) var epoch: UInt64?

    /// A schedule that has given no name yet.
    init(names: AdvertisedName) {
        self.names = names
    }

    /// The name for mesh time `meshTime` (milliseconds since the Unix epoch) when its epoch differs
    /// from the last one given; nil while it does not. A failed derivation is reported once for its
    /// epoch (the advertisement keeps its name until the next epoch).
    mutating func next(meshTime: UInt64) -> Result<Change, CryptoError>? {
        let now = AdvertisedName.epoch(meshTime: meshTime)
        guard now != epoch else { return nil }
        epoch = now
        do throws(CryptoError) {
            return .success(Change(epoch: now, name: try names.name(epoch: now)))
        } catch {
            return .failure(error)
        }
    }
}
