import MeshCrypto

/// The schedule of advertised names and where a new name goes (the BlueZ transport).
struct AdvertisedNameRotation {
    /// Which name, when.
    var schedule: AdvertisedNameSchedule
    /// Hands a new name to the transport.
    let apply: @Sendable (String) -> Void
}

extension NodeRuntime {
    /// Gives the advertisement the name of each epoch of mesh time from now on (docs/PROTOCOL.md
    /// D13), checked on every tick; the first tick gives the name of the current epoch (the same
    /// name the transport was built with, unless an epoch ended in between).
    public func rotateAdvertisedName(_ names: AdvertisedName, apply: @escaping @Sendable (String) -> Void) {
        queue.sync {
            confined.value.advertising = AdvertisedNameRotation(schedule: AdvertisedNameSchedule(names: names), apply: apply)
        }
    }

    /// On the engine queue: renames the advertisement when mesh time entered another epoch.
    func renameAdvertisementIfDue() {
        guard var rotation = confined.value.advertising else { return }
        let outcome = rotation.schedule.next(meshTime: engine.meshTime(at: now))
        confined.value.advertising = rotation
        switch outcome {
        case nil: return
        case .success(let change):
            rotation.apply(change.name)
            logger.info(.general, "advertised name is now \(change.name) (epoch \(change.epoch))")
        case .failure(let error):
            logger.error(.general, "could not derive the advertised name: \(error)")
        }
    }
}
