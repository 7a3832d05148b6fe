import Foundation

/// The central role: pick a discovered peer, connect, resolve, subscribe; retry with backoff.
extension BlueZSession {
    /// Starts one connection attempt if a suitable device is known and none is in progress.
    func considerConnecting() {
        guard adapterReady, connecting == nil else { return }
        guard !atConnectionLimit else { stopDiscovery {}; return }
        let time = now()
        var wake: Double?
        for device in cache.devices(under: adapterPath) where device.uuids.contains(config.serviceUUID) {
            guard !device.connected, shared.withLock({ $0.links.link(forDevice: device.path) == nil }),
                  filter.permits(device.address) else { continue }
            guard backoff.mayAttempt(device.address, now: time) else { continue }
            // A hold on first sight (and after each loss) so that two nodes that see each other rarely dial
            // at once: the node with the lower address dials first, the other one a few seconds later.
            let hold = holdUntil[device.address] ?? {
                let until = time + ConnectionTieBreak.hold(own: ownAddress, peer: device.address,
                                                           unit: Double.random(in: 0..<1))
                holdUntil[device.address] = until
                if holdUntil.count > 512 { holdUntil = holdUntil.filter { $0.value > time - 600 } }
                return until
            }()
            if hold > time { wake = min(wake ?? hold, hold); continue }
            startAttempt(device)
            return
        }
        ensureDiscovery()
        if let next = [wake, backoff.nextWake(after: time)].compactMap({ $0 }).min() { armWake(at: next) }
    }

    /// Drops connections that stayed up without becoming a link for longer than an attempt may take
    /// (a peer that never resolves or never writes, or a connection the stack lost track of).
    func reapStaleConnections() {
        reaperTimer = nil
        guard adapterReady else { return }
        let time = now(), bound = config.connectTimeout * 2 + 2
        var seen: [String: Double] = [:]
        for device in cache.devices(under: adapterPath) where device.connected && connecting?.path != device.path {
            guard shared.withLock({ $0.links.link(forDevice: device.path) }) == nil else { continue }
            let since = connectedSince[device.path] ?? time
            seen[device.path] = since
            if time - since > bound {
                count { $0.staleConnectionsDropped += 1 }
                log(.warning, "dropping \(device.address): connected \(Int(time - since)) s without a link")
                call(path: device.path, interface: BlueZ.device, member: "Disconnect") { _ in }
                seen[device.path] = nil
            }
        }
        connectedSince = seen
        reaperTimer = loop.after(bound / 2) { [self] in reapStaleConnections() }
    }

    /// Our adapter's address, when BlueZ reported it.
    var ownAddress: String? {
        (try? cache.adapter(adapterPath)?["Address"]?.string()).flatMap(AddressFilter.normalize)
    }

    private func armWake(at time: Double) {
        if let timer = wakeTimer { loop.cancelTimer(timer) }
        wakeTimer = loop.after(max(0.05, time - now())) { [self] in
            wakeTimer = nil
            considerConnecting()
        }
    }

    private func startAttempt(_ device: BlueZObjectCache.Device) {
        var attempt = Attempt(path: device.path, address: device.address, stage: .stoppingDiscovery)
        attempt.timer = loop.after(config.connectTimeout * 2 + 2) { [self] in
            if connecting?.path == device.path { attemptFailed("setup timed out") }
        }
        connecting = attempt
        count { $0.connectAttempts += 1 }
        log(.info, "connecting to \(device.address)")
        let started = now()
        stopDiscovery { [self] in
            guard connecting?.path == device.path else { return }
            connecting?.stage = .connecting
            connecting?.call = call(path: device.path, interface: BlueZ.device, member: "Connect",
                                    timeout: config.connectTimeout) { [self] result in
                guard connecting?.path == device.path else { return }
                switch result {
                case .success, .failure(.remote("org.bluez.Error.AlreadyConnected", _)):
                    log(.info, "connected to \(device.address) in \(String(format: "%.2f", now() - started)) s")
                    connecting?.stage = .resolving
                    advanceAttempt()
                case .failure(let error):
                    attemptFailed("Connect: \(error.summary)")
                }
            }
        }
    }

    /// Moves the attempt on once the device is connected and its services are resolved.
    func advanceAttempt() {
        guard let attempt = connecting, attempt.stage == .resolving,
              let device = cache.device(attempt.path), device.connected, device.servicesResolved else { return }
        if shared.withLock({ $0.links.link(forDevice: attempt.path) }) != nil {
            finishAttempt()
            return
        }
        guard let characteristic = cache.characteristic(of: attempt.path, serviceUUID: config.serviceUUID,
                                                        uuid: config.messageCharacteristicUUID) else {
            attemptFailed("no mesh characteristic on \(attempt.address)")
            return
        }
        connecting?.stage = .subscribing
        connecting?.call = call(path: characteristic.path, interface: BlueZ.characteristic,
                                member: "StartNotify") { [self] result in
            guard connecting?.path == attempt.path else { return }
            switch result {
            case .success, .failure(.remote("org.bluez.Error.InProgress", _)):
                if openLink(device: attempt.path, address: attempt.address, attMTU: characteristic.mtu,
                            wrote: false) != nil {
                    finishAttempt()
                } else {
                    attemptFailed("link refused")
                }
            case .failure(let error):
                attemptFailed("StartNotify: \(error.summary)")
            }
        }
    }

    /// Ends the attempt in progress as a success.
    func finishAttempt() {
        guard let attempt = connecting else { return }
        loop.cancelTimer(attempt.timer)
        connecting = nil
        backoff.recordSuccess(attempt.address)
        refreshAdvertisement()
        loop.later { [self] in considerConnecting() }
    }

    /// Ends the attempt in progress as a failure: cancel, back off, resume discovery.
    func attemptFailed(_ reason: String, disconnect: Bool = true) {
        guard let attempt = connecting else { return }
        connecting = nil
        loop.cancelTimer(attempt.timer)
        if attempt.call != 0 { connection?.cancel(attempt.call) }
        count { $0.connectFailures += 1 }
        let delay = backoff.recordFailure(attempt.address, now: now(), unit: Double.random(in: 0..<1))
        log(.warning, "connection to \(attempt.address) failed (\(reason)); next try in \(String(format: "%.1f", delay)) s")
        // Cancel our pending connection, but never a connection the peer made meanwhile (one LE link per pair).
        let peerConnected = attempt.stage == .connecting && cache.device(attempt.path)?.connected == true
        if disconnect, !peerConnected, shared.withLock({ $0.links.link(forDevice: attempt.path) }) == nil {
            call(path: attempt.path, interface: BlueZ.device, member: "Disconnect") { [self] _ in
                // After repeated failures forget bluetoothd's device object (cached GATT database,
                // connection state); discovery creates it afresh.
                guard (backoff.entries[attempt.address]?.failures ?? 0) >= 2 else { return }
                count { $0.devicesRemoved += 1 }
                log(.info, "removing \(attempt.address) from bluetoothd after repeated failures")
                call(path: adapterPath, interface: BlueZ.adapter, member: "RemoveDevice",
                     [.objectPath(attempt.path)]) { _ in }
            }
        }
        loop.later { [self] in considerConnecting() }
    }
}
