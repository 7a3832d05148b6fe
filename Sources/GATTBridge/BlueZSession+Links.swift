import DBusKit
import Glibc
import MeshLink

/// Opening, updating and closing links, and carrying frames.
extension BlueZSession {
    /// Reacts to any change of a device: link loss, services resolved, signal strength.
    ///
    /// A peer that dialled us gets its link when its services are resolved and show our service, or at
    /// its first write (``incomingWrite``), whichever comes first. A peer without our service (a client
    /// that only dials and subscribes) therefore gets its link at its first write, after it subscribed.
    func deviceChanged(_ path: String, lostConnection: Bool) {
        guard let device = cache.device(path) else { return }
        if lostConnection, let slot = slots.release(device: path) {
            log(.info, "client slot \(slot) free: \(device.address) disconnected")
        }
        if let link = links.link(forDevice: path) {
            guard !lostConnection else {
                closeLink(link.id, reason: "disconnected", disconnectDevice: false)
                return
            }
            let peer = peerDatabase(path)
            if link.remoteCharacteristic != nil, peer == .noMeshService {
                // The peer's service went away (its application was unregistered): nothing to write to,
                // and notifying a node would not reach it (nodes ignore notifications).
                closeLink(link.id, reason: "the peer's mesh service went away", disconnectDevice: false)
                return
            }
            if peer != .unresolved, let changed = links.setPeer(device: path, peer) {
                peerResolved(changed)
            }
            if let rssi = device.rssi, let id = links.setRSSI(device: path, rssi) {
                publishLinks()
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

    /// What the peer's GATT database holds, as far as BlueZ has resolved it.
    func peerDatabase(_ device: String) -> PeerDatabase {
        if let found = remoteCharacteristic(device) { return .messageCharacteristic(found.path) }
        return cache.device(device)?.servicesResolved == true ? .noMeshService : .unresolved
    }

    /// The peer's database became known or changed: refuse a second client without a GATT server
    /// (BlueZ 5.66 would show it the first one's notifications), otherwise send what waited.
    func peerResolved(_ link: LinkRecord) {
        let notifying = notifying
        guard let route = links.route(of: link.id, subscribed: notifying, slots: slots.byDevice, slotsSubscribed: slotsNotifying) else { return }
        log(.info, "\(link.id) peer database: " + {
            switch link.peer {
            case .messageCharacteristic: return "mesh service, frames are written"
            case .noMeshService: return "no mesh service, frames are notified"
            case .unresolved: return "not resolved"
            }
        }())
        if case .refuse(.notifyTaken) = route.decision {
            count { $0.notifyClientsRefused += 1 }
            closeLink(link.id, reason: "a second client without a GATT server (BlueZ 5.66 notifies every subscriber)",
                      disconnectDevice: true)
            return
        }
        askMTU(link)
        releaseHeld(link.id)
    }

    /// A connection still at the initial ATT MTU when its peer's database resolves: bluetoothd has
    /// usually exchanged the MTU by then, but signals it only on characteristic objects that
    /// existed at the exchange (a cached database's objects may come later), so each end would
    /// learn it only from the other's first write. The peer characteristic's `MTU` property is
    /// read live from the connection's ATT bearer: one `Get` tells the engine now, and the key
    /// exchange waiting for it (``LinkInfo/mtuSettled``) goes in one write.
    func askMTU(_ link: LinkRecord) {
        guard let characteristic = link.remoteCharacteristic,
              connectionMTU.connections[link.devicePath] == ConnectionMTU.initial else { return }
        let device = link.devicePath
        call(path: characteristic, interface: "org.freedesktop.DBus.Properties", member: "Get",
             [.string(BlueZ.characteristic), .string("MTU")]) { [self] result in
            guard case .success(let arguments) = result, case .variant(.uint16(let mtu))? = try? arguments.at(0) else { return }
            mtuSeen(device: device, attMTU: Int(mtu))
        }
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
        let linkCount = links.links.count
        guard linkCount + (connecting != nil && !ours ? 1 : 0) < config.maxConnections else {
            count { $0.refusedOverLimit += 1 }
            log(.warning, "refusing \(address): \(linkCount) links is the limit")
            call(path: path, interface: BlueZ.device, member: "Disconnect") { _ in }
            return nil
        }
        let remote = remoteCharacteristic(path)
        let peer = peerDatabase(path)
        // A connection we saw start has the MTU seen on it (23 until an exchange); the mirror's `MTU`
        // may be the previous connection's (BLUEZ.md, "ATT MTU per connection").
        let mtu = connectionMTU.mtu(path, cached: remote?.mtu ?? attMTU)
        let role: LinkRole = ours ? .central : .peripheral
        guard let record = links.open(devicePath: path, address: address, role: role, attMTU: mtu, peer: peer) else {
            return links.link(forDevice: path)
        }
        count { $0.linksUp += 1 }
        publishLinks()
        log(.info, "\(record.id) up: \(address) as \(role.rawValue), ATT MTU \(record.attMTU)"
            + (wrote ? " (peer wrote first)" : ""))
        // A connection seen starting at 23 has its MTU exchange still ahead (bluetoothd starts one
        // as central; phones do as central): the engine waits a moment for it before keying.
        var info = record.info
        info.mtuSettled = !(connectionMTU.tracks(path) && record.attMTU == ConnectionMTU.initial)
        // ATT writes and notifications arrive in order while the connection lasts.
        info.lossless = true
        deliver(.linkUp(info))
        // A link to the device we are dialling (its first write can come before our own lookup) ends
        // the attempt: otherwise it would hold the one attempt slot until its deadline.
        if ours { finishAttempt() } else { refreshAdvertisement() }
        // A link that came up is a success whoever dialled: a node that only ever gets dialled would
        // otherwise keep every earlier loss and wait 120 s before dialling that peer itself.
        backoff.recordSuccess(address)
        if peer != .unresolved { peerResolved(record) }
        return links.links[record.id]
    }

    /// An ATT MTU seen on the device's current connection (an exchange signal, a write's option, a
    /// characteristic object added while connected): raises the link's MTU. For a connection that started before we watched,
    /// the value is taken as it is.
    func mtuSeen(device: String, attMTU: Int) {
        if connectionMTU.tracks(device) {
            guard let mtu = connectionMTU.exchanged(device, mtu: attMTU) else { return }
            updateMTU(device: device, attMTU: mtu)
        } else {
            updateMTU(device: device, attMTU: attMTU)
        }
    }

    /// Records a new ATT MTU and tells the engine when the frame limit changed.
    func updateMTU(device: String, attMTU: Int) {
        guard let frame = links.setMTU(device: device, attMTU: attMTU),
              let link = links.link(forDevice: device) else { return }
        publishLinks()
        log(.debug, "\(link.id) ATT MTU now \(link.attMTU)")
        deliver(.mtuChanged(link.id, mtu: frame))
    }

    /// Closes one link, optionally disconnecting the device, and reports it down.
    func closeLink(_ id: LinkID, reason: String, disconnectDevice: Bool) {
        guard let record = links.close(id) else { return }
        if let slot = slots.release(device: record.devicePath) { log(.info, "client slot \(slot) free: its link closed") }
        // bluetoothd keeps our notify session and enables it again on the next connection: drop it, or
        // a later connection would also receive the slot's next holder's notifications.
        if let slot = record.remoteSlot { call(path: slot, interface: BlueZ.characteristic, member: "StopNotify") { _ in } }
        count { $0.linksDown += 1 }
        publishLinks()
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
        let closed = links.closeAll(under: prefix)
        slots.releaseAll(under: prefix)
        guard !closed.isEmpty else { return }
        count { $0.linksDown += closed.count }
        publishLinks()
        for record in closed {
            if let slot = record.remoteSlot { call(path: slot, interface: BlueZ.characteristic, member: "StopNotify") { _ in } }
            discardQueue(record.id)
            log(.info, "\(record.id) down: \(record.address) (\(reason))")
            deliver(.linkDown(record.id, reason: reason))
        }
    }

    /// Forgets a closed link's queued and held frames, counting them.
    func discardQueue(_ id: LinkID) {
        let dropped = (writeQueues.removeValue(forKey: id)?.count ?? 0) + (heldFrames.removeValue(forKey: id)?.count ?? 0)
        if let timer = holdTimers.removeValue(forKey: id) { loop.cancelTimer(timer) }
        writing.remove(id)
        pacers[id] = nil
        if dropped > 0 { count { $0.framesDroppedWithLink += dropped } }
    }

    /// Starts the next queued write of a link unless one is outstanding: BlueZ answers InProgress to a
    /// second WriteValue on the same characteristic, and one at a time also keeps frames in order. The
    /// link's ``WritePacer`` says whether it goes as a Write Request or a Write Command.
    func pumpWrites(on id: LinkID) {
        guard !writing.contains(id), var queue = writeQueues[id], !queue.isEmpty else { return }
        let next = queue.removeFirst()
        writeQueues[id] = queue.isEmpty ? nil : queue
        writing.insert(id)
        let type = pacers[id, default: WritePacer(configured: config.writeType, window: config.writeWindow)].next
        // Longer than BlueZ's 30 s ATT transaction timeout: giving up earlier would leave BlueZ's write
        // pending and every later one would fail with InProgress.
        call(path: next.characteristic, interface: BlueZ.characteristic, member: "WriteValue",
             [.bytes(next.frame), .propertyMap(["type": .string(type.rawValue)])],
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
            links.finished(on: id)
            if case .success = result, links.links[id] != nil {
                pacers[id, default: WritePacer(configured: config.writeType, window: config.writeWindow)].written(type)
            }
            count {
                if case .failure = result {
                    $0.writesFailed += 1
                } else {
                    $0.framesWritten += 1
                    if type == .command { $0.framesWrittenAsCommands += 1 }
                }
            }
            if case .failure(let error) = result {
                log(.warning, "write of \(next.frame.count) bytes on \(id) failed: \(error.summary)")
            }
            pumpWrites(on: id)
        }
    }

    /// Takes one frame from the engine: ``LinkBook`` decides here, on the loop thread, whether it is
    /// written, notified, held for the link's route or refused. A refusal (the link is gone by now, the
    /// frame is longer than the link's limit, the link's queue is full, there is no route) is counted in
    /// ``BlueZCounters/refused`` and the frame dropped; a link that went has already reported `.linkDown`.
    func send(_ frame: [UInt8], on id: LinkID) {
        let decision = links.decide(size: frame.count, on: id, queueLimit: config.sendQueueLimit, notifying: notifying,
                                    slots: slots.byDevice, slotsSubscribed: slotsNotifying)
        if case .refuse(_, let reason) = decision {
            count { $0.refuse(reason) }
            return
        }
        transmit(frame, on: id, decision: decision)
    }

    /// Carries one accepted frame: a write to the peer's characteristic, a notification, or a wait for the route.
    private func transmit(_ frame: [UInt8], on id: LinkID, decision: SendDecision) {
        // Frames already waiting go first: a later frame joins them to keep the order.
        if decision == .hold || heldFrames[id] != nil {
            count { $0.framesHeld += 1 }
            if heldFrames[id] == nil {
                let bound = config.connectTimeout
                holdTimers[id] = loop.after(bound) { [self] in
                    holdTimers[id] = nil
                    guard heldFrames[id] != nil else { return }
                    closeLink(id, reason: "no route to the peer within \(Int(bound)) s (database not resolved, "
                              + "or not subscribed)", disconnectDevice: true)
                }
            }
            heldFrames[id, default: []].append(frame)
            releaseHeld(id)
            return
        }
        carry(frame, on: id, decision)
    }

    /// Sends the frames that waited for a link's route, in order, as far as the route is known now.
    func releaseHeld(_ id: LinkID) {
        guard var waiting = heldFrames[id], !waiting.isEmpty else { return }
        let notifying = notifying
        guard let route = links.route(of: id, subscribed: notifying, slots: slots.byDevice, slotsSubscribed: slotsNotifying) else { return }
        let decision: SendDecision
        switch route.decision {
        case .wait: return
        case .write(let path): decision = .write(characteristic: path)
        case .notify: decision = .notify
        case .notifySlot(let slot): decision = .notifySlot(slot)
        case .refuse(let reason): decision = .refuse(.full, reason)
        }
        heldFrames[id] = nil
        if let timer = holdTimers.removeValue(forKey: id) { loop.cancelTimer(timer) }
        while !waiting.isEmpty { carry(waiting.removeFirst(), on: id, decision) }
    }

    /// Sends what waited on every link (someone subscribed).
    func releaseAllHeld() {
        for id in heldFrames.keys.sorted() { releaseHeld(id) }
    }

    private func carry(_ frame: [UInt8], on id: LinkID, _ decision: SendDecision) {
        switch decision {
        case .write(let characteristic):
            writeQueues[id, default: []].append((frame, characteristic))
            pumpWrites(on: id)
        case .notify:
            emit(path: gatt.messagePath, interface: DBusObjectTree.properties, member: "PropertiesChanged",
                 gatt.notification(frame))
            links.finished(on: id)
            count { $0.notificationsSent += 1 }
        case .notifySlot(let slot):
            // Only this slot's subscriber (the device that claimed it) receives it: docs/BLUEZ.md, "Client slots".
            emit(path: gatt.slotPaths[slot], interface: DBusObjectTree.properties, member: "PropertiesChanged",
                 gatt.notification(frame, slot: slot))
            links.finished(on: id)
            count { $0.notificationsSent += 1 }
        case .refuse(_, let reason):
            links.finished(on: id)
            count { $0.refuse(reason) }
        case .hold:
            heldFrames[id, default: []].append(frame)
        }
    }
}
