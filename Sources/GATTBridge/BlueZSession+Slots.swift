import DBusKit

/// The client side of client slots: a node without a GATT server of its own claims one of the
/// peer's slot characteristics and subscribes to it (docs/BLUEZ.md, "Client slots").
extension BlueZSession {
    /// The peer's client slot characteristics, slot 0 first, as far as its database shows them.
    func peerSlots(_ device: String) -> [String] {
        var found: [String] = []
        for slot in 0..<ClientSlots.maxCount {
            guard let uuid = ClientSlots.uuid(base: config.slotBaseUUID, slot: slot),
                  let characteristic = cache.characteristic(of: device, serviceUUID: config.serviceUUID, uuid: uuid)
            else { break }
            found.append(characteristic.path)
        }
        return found
    }

    /// Subscribes for the attempt in progress: a client without a GATT server claims a free slot of the
    /// peer (an empty write; a held slot answers NotPermitted) and subscribes to it; with no slot (an
    /// older node, or every slot taken) it subscribes to the message characteristic as before.
    func subscribe(_ attempt: Attempt, message: (path: String, mtu: Int?)) {
        let candidates = config.gattServer ? [] : peerSlots(attempt.path)
        let start = candidates.isEmpty ? 0 : Int.random(in: 0..<candidates.count)
        claimSlot(attempt, message: message, order: Array(candidates[start...] + candidates[..<start]))
    }

    private func claimSlot(_ attempt: Attempt, message: (path: String, mtu: Int?), order: [String]) {
        guard let slot = order.first else {
            startNotify(attempt, characteristic: message.path, mtu: message.mtu, slot: nil)
            return
        }
        log(.debug, "\(attempt.address): claiming client slot \(slot)")
        connecting?.call = call(path: slot, interface: BlueZ.characteristic, member: "WriteValue",
                                [.bytes([]), .propertyMap(["type": .string("request")])]) { [self] result in
            guard connecting?.path == attempt.path else { return }
            switch result {
            case .success:
                log(.info, "\(attempt.address): claimed client slot \(slot)")
                startNotify(attempt, characteristic: slot, mtu: message.mtu, slot: slot)
            case .failure(let error):
                log(.info, "\(attempt.address): client slot \(slot) refused (\(error.summary))")
                if order.count == 1 { log(.warning, "\(attempt.address): no free client slot; subscribing to the message characteristic") }
                claimSlot(attempt, message: message, order: Array(order.dropFirst()))
            }
        }
    }

    private func startNotify(_ attempt: Attempt, characteristic: String, mtu: Int?, slot: String?) {
        connecting?.call = call(path: characteristic, interface: BlueZ.characteristic,
                                member: "StartNotify") { [self] result in
            guard connecting?.path == attempt.path else { return }
            switch result {
            case .success, .failure(.remote("org.bluez.Error.InProgress", _)):
                if openLink(device: attempt.path, address: attempt.address, attMTU: mtu, wrote: false) != nil {
                    links.setRemoteSlot(device: attempt.path, slot)
                    finishAttempt()
                } else {
                    attemptFailed("link refused")
                }
            case .failure(let error):
                attemptFailed("StartNotify: \(error.summary)")
            }
        }
    }
}
