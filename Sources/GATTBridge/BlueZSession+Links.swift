import DBusKit
import Foundation
import MeshLink

/// Opening, updating and closing links, and carrying frames.
extension BlueZSession {
    /// Reacts to any change of a device: link loss, services resolved, signal strength.
    func deviceChanged(_ path: String, lostConnection: Bool) {
        guard let device = cache.device(path) else { return }
        if let link = shared.withLock({ $0.links.link(forDevice: path) }) {
            guard !lostConnection else {
                closeLink(link.id, reason: "disconnected", disconnectDevice: false)
                return
            }
            if link.remoteCharacteristic == nil, device.servicesResolved, let found = remoteCharacteristic(path) {
                shared.withLock { $0.links.setRemoteCharacteristic(device: path, found.path) }
                if let mtu = found.mtu { updateMTU(device: path, attMTU: mtu) }
            }
            if let rssi = device.rssi, let id = shared.withLock({ $0.links.setRSSI(device: path, rssi) }) {
                deliver(.rssiChanged(id, rssi: rssi))
            }
        } else if let attempt = connecting, attempt.path == path {
            if lostConnection, attempt.stage == .resolving || attempt.stage == .subscribing {
                attemptFailed("disconnected during setup", disconnect: false)
            } else {
                advanceAttempt()
            }
        } else if device.connected, device.servicesResolved, remoteCharacteristic(path) != nil {
            _ = openLink(device: path, address: device.address, attMTU: nil, wrote: false)
        } else {
            considerConnecting()
        }
    }

    /// The peer's message characteristic, when its GATT database is resolved and has our service.
    func remoteCharacteristic(_ device: String) -> (path: String, mtu: Int?)? {
        cache.characteristic(of: device, serviceUUID: config.serviceUUID, uuid: config.messageCharacteristicUUID)
    }

    /// Opens the link for a device after the address filter and connection limit; reports it up.
    func openLink(device path: String, address: String, attMTU: Int?, wrote: Bool) -> LinkRecord? {
        guard !stopping else { return nil }
        guard filter.permits(address) else {
            count { $0.deniedByAddress += 1 }
            log(.info, "refusing \(address): address filter")
            call(path: path, interface: BlueZ.device, member: "Disconnect") { _ in }
            return nil
        }
        let ours = connecting?.path == path
        let linkCount = shared.withLock { $0.links.links.count }
        guard linkCount + (connecting != nil && !ours ? 1 : 0) < config.maxConnections else {
            count { $0.refusedOverLimit += 1 }
            log(.warning, "refusing \(address): \(linkCount) links is the limit")
            call(path: path, interface: BlueZ.device, member: "Disconnect") { _ in }
            return nil
        }
        let remote = remoteCharacteristic(path)
        let mtu = attMTU ?? remote?.mtu ?? 23
        let role: LinkRole = ours ? .central : .peripheral
        guard let record = shared.withLock({ state -> LinkRecord? in
            guard let record = state.links.open(devicePath: path, address: address, role: role, attMTU: mtu,
                                                remoteCharacteristic: remote?.path) else { return nil }
            state.counters.linksUp += 1
            return record
        }) else { return shared.withLock { $0.links.link(forDevice: path) } }
        log(.info, "\(record.id) up: \(address) as \(role.rawValue), ATT MTU \(record.attMTU)"
            + (wrote ? " (peer wrote first)" : ""))
        deliver(.linkUp(record.info))
        // A link to the device we are dialling (its first write can come before our own lookup) ends
        // the attempt: otherwise it would hold the one attempt slot until its deadline.
        if ours { finishAttempt() } else { refreshAdvertisement() }
        return record
    }

    /// Records a new ATT MTU and tells the engine when the frame limit changed.
    func updateMTU(device: String, attMTU: Int) {
        guard let frame = shared.withLock({ $0.links.setMTU(device: device, attMTU: attMTU) }),
              let link = shared.withLock({ $0.links.link(forDevice: device) }) else { return }
        log(.debug, "\(link.id) ATT MTU now \(link.attMTU)")
        deliver(.mtuChanged(link.id, mtu: frame))
    }

    /// Closes one link, optionally disconnecting the device, and reports it down.
    func closeLink(_ id: LinkID, reason: String, disconnectDevice: Bool) {
        guard let record = shared.withLock({ state -> LinkRecord? in
            let record = state.links.close(id)
            if record != nil { state.counters.linksDown += 1 }
            return record
        }) else { return }
        log(.info, "\(id) down: \(record.address) (\(reason))")
        discardQueue(id)
        holdUntil[record.address] = nil
        deliver(.linkDown(id, reason: reason))
        if disconnectDevice {
            call(path: record.devicePath, interface: BlueZ.device, member: "Disconnect") { _ in }
        }
        if !stopping {
            backoff.recordFailure(record.address, now: now(), unit: Double.random(in: 0..<1))
            refreshAdvertisement()
            loop.later { [self] in considerConnecting() }
        }
    }

    /// Closes every link on the adapter (power off, removal, bluetoothd gone).
    func dropLinks(under prefix: String, reason: String) {
        let closed = shared.withLock { state -> [LinkRecord] in
            let closed = state.links.closeAll(under: prefix)
            state.counters.linksDown += closed.count
            return closed
        }
        for record in closed {
            discardQueue(record.id)
            log(.info, "\(record.id) down: \(record.address) (\(reason))")
            deliver(.linkDown(record.id, reason: reason))
        }
    }

    /// Forgets a closed link's queued frames, counting them.
    func discardQueue(_ id: LinkID) {
        let dropped = writeQueues.removeValue(forKey: id)?.count ?? 0
        writing.remove(id)
        if dropped > 0 { count { $0.framesDroppedWithLink += dropped } }
    }

    /// Starts the next queued write of a link unless one is outstanding: BlueZ answers InProgress to a
    /// second WriteValue on the same characteristic, and one at a time also keeps frames in order.
    func pumpWrites(on id: LinkID) {
        guard !writing.contains(id), var queue = writeQueues[id], !queue.isEmpty else { return }
        let next = queue.removeFirst()
        writeQueues[id] = queue.isEmpty ? nil : queue
        writing.insert(id)
        // Longer than BlueZ's 30 s ATT transaction timeout: giving up earlier would leave BlueZ's write
        // pending and every later one would fail with InProgress.
        call(path: next.characteristic, interface: BlueZ.characteristic, member: "WriteValue",
             [.bytes(next.frame), .propertyMap(["type": .string("request")])],
             timeout: max(config.callTimeout, 35)) { [self] result in
            if case .failure(.remote("org.bluez.Error.InProgress", _)) = result {
                // Not sent: BlueZ still has an earlier write outstanding. Keep the frame first in line.
                writeQueues[id, default: []].insert(next, at: 0)
                loop.after(0.5) { [self] in
                    writing.remove(id)
                    pumpWrites(on: id)
                }
                return
            }
            writing.remove(id)
            shared.withLock { state in
                state.links.finished(on: id)
                if case .failure = result { state.counters.writesFailed += 1 } else { state.counters.framesWritten += 1 }
            }
            if case .failure(let error) = result {
                log(.warning, "write of \(next.frame.count) bytes on \(id) failed: \(error.summary)")
            }
            pumpWrites(on: id)
        }
    }

    /// Carries one accepted frame: a write to the peer's characteristic, or a notification.
    func transmit(_ frame: [UInt8], on id: LinkID, decision: SendDecision) {
        switch decision {
        case .write(let characteristic):
            writeQueues[id, default: []].append((frame, characteristic))
            pumpWrites(on: id)
        case .notify:
            emit(path: gatt.messagePath, interface: DBusObjectTree.properties, member: "PropertiesChanged",
                 gatt.notification(frame))
            shared.withLock { state in
                state.links.finished(on: id)
                state.counters.notificationsSent += 1
            }
        case .refuse:
            shared.withLock { $0.links.finished(on: id) }
        }
    }
}
