import Glibc

/// The central role: pick a discovered peer, connect, resolve, subscribe; retry with backoff.
extension BlueZSession {
    /// Starts one connection attempt if a suitable device is known and none is in progress.
    func considerConnecting() {
        guard adapterReady, connecting == nil else { return }
        guard !atConnectionLimit else { stopDiscovery {}; return }
        let time = now()
        var wake: Double?
        for device in cache.devices(under: adapterPath) where device.uuids.contains(config.serviceUUID) {
            guard !device.connected, links.link(forDevice: device.path) == nil,
                  filter.permits(device.address) else { continue }
            guard backoff.mayAttempt(device.address, now: time) else { continue }
            // A hold on first sight (and after each loss) so that two nodes that see each other rarely dial
            // at once: the node with the lower address dials first, the other one a few seconds later.
            // A client without a GATT server is never dialled, so it always dials first.
            let hold = holdUntil[device.address] ?? {
                let until = time + ConnectionTieBreak.hold(own: ownAddress, peer: device.address,
                                                           unit: Double.random(in: 0..<1),
                                                           connectTimeout: config.connectTimeout,
                                                           peerCanDial: config.gattServer)
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
        let time = now(), bound = config.attemptBound
        var seen: [String: Double] = [:]
        for device in cache.devices(under: adapterPath) where device.connected && connecting?.path != device.path {
            guard links.link(forDevice: device.path) == nil else { continue }
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
        let bound = config.attemptBound
        var attempt = Attempt(path: device.path, address: device.address, stage: .stoppingDiscovery,
                              deadline: now() + bound)
        attempt.timer = loop.after(bound) { [self] in
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
                    log(.info, "connected to \(device.address) in \(fixed(now() - started, 2)) s")
                    connecting?.stage = .resolving
                    let until = CharacteristicLookup.servicesDeadline(connectedAt: now(), deadline: connecting?.deadline ?? now())
                    connecting?.servicesTimer = loop.after(max(0.05, until - now())) { [self] in
                        guard let attempt = connecting, attempt.path == device.path, attempt.stage == .resolving else { return }
                        connecting?.servicesTimer = nil
                        guard cache.device(device.path)?.servicesResolved != true else { return }
                        count { $0.servicesTimeouts += 1 }
                        attemptFailed("services not resolved \(fixed(until - started, 1)) s after connecting", servicesTimedOut: true)
                    }
                    advanceAttempt()
                case .failure(let error):
                    attemptFailed("Connect: \(error.summary)")
                }
            }
        }
    }

    /// Moves the attempt on once the device is connected, its services are resolved and our
    /// characteristic is in the mirror (``CharacteristicLookup``: it may show up after `ServicesResolved`).
    func advanceAttempt() {
        // `.resolving` means Connect answered: the mirror's `Connected` is not waited for. In the
        // emulator it stayed false on some first connections while bluetoothd showed the device
        // connected and resolved, and the attempt sat until its deadline (docs/BLUEZ.md, "What is left").
        guard let attempt = connecting, attempt.stage == .resolving,
              let device = cache.device(attempt.path) else { return }
        if !device.connected, device.servicesResolved {
            log(.debug, "\(attempt.address) resolved while our mirror says not connected; going on")
        }
        if links.link(forDevice: attempt.path) != nil {
            finishAttempt()
            return
        }
        let time = now()
        let found = remoteCharacteristic(attempt.path)
        if device.servicesResolved, found == nil, attempt.resolvedAt == nil { connecting?.resolvedAt = time }
        let step = CharacteristicLookup.step(servicesResolved: device.servicesResolved, characteristic: found?.path,
                                             resolvedAt: connecting?.resolvedAt, now: time,
                                             grace: config.connectTimeout, deadline: attempt.deadline)
        if let timer = connecting?.lookupTimer { loop.cancelTimer(timer); connecting?.lookupTimer = nil }
        let characteristic: (path: String, mtu: Int?)
        switch step {
        case .waitForServices:
            if device.servicesResolved { log(.debug, "\(attempt.address) resolved; waiting for its objects") }
            return
        case .recheck(let at):
            if attempt.resolvedAt == nil { log(.debug, "\(attempt.address) resolved without our characteristic yet; looking again") }
            connecting?.lookupTimer = loop.after(max(0.05, at - time)) { [self] in
                guard connecting?.path == attempt.path else { return }
                connecting?.lookupTimer = nil
                advanceAttempt()
            }
            return
        case .giveUp:
            attemptFailed("no mesh characteristic on \(attempt.address) after its services resolved")
            return
        case .subscribe(let path):
            characteristic = (path, found?.mtu)
        }
        if !config.gattServer, peerSlots(attempt.path).isEmpty {
            // The slots come after the message characteristic in the peer's database: give them a
            // moment to appear before treating the peer as a node without slots.
            let until = attempt.slotsWaitUntil ?? time + Self.slotsWait
            if time < until {
                connecting?.slotsWaitUntil = until
                connecting?.lookupTimer = loop.after(0.05) { [self] in
                    guard connecting?.path == attempt.path else { return }
                    connecting?.lookupTimer = nil
                    advanceAttempt()
                }
                return
            }
        }
        if let resolvedAt = connecting?.resolvedAt {
            log(.info, "\(attempt.address): our characteristic appeared \(fixed(time - resolvedAt, 2)) s after ServicesResolved")
        }
        connecting?.stage = .subscribing
        subscribe(attempt, message: characteristic)
    }

    /// How long a client without a GATT server waits for a peer's client slots to appear after
    /// its message characteristic did (a peer without slots is an older node).
    static let slotsWait = 1.0

    /// Ends the attempt in progress as a success.
    func finishAttempt() {
        guard let attempt = connecting else { return }
        loop.cancelTimer(attempt.timer)
        if let timer = attempt.lookupTimer { loop.cancelTimer(timer) }
        if let timer = attempt.servicesTimer { loop.cancelTimer(timer) }
        connecting = nil
        backoff.recordSuccess(attempt.address)
        refreshAdvertisement()
        loop.later { [self] in considerConnecting() }
    }

    /// Ends the attempt in progress as a failure: cancel, back off, resume discovery. What is undone
    /// follows ``AttemptCleanup``: an LE connection that exists may carry the peer's link and is left up.
    func attemptFailed(_ reason: String, disconnect: Bool = true, servicesTimedOut: Bool = false) {
        guard let attempt = connecting else { return }
        connecting = nil
        loop.cancelTimer(attempt.timer)
        if let timer = attempt.lookupTimer { loop.cancelTimer(timer) }
        if let timer = attempt.servicesTimer { loop.cancelTimer(timer) }
        if attempt.call != 0 { connection?.cancel(attempt.call) }
        count { $0.connectFailures += 1 }
        let delay = backoff.recordFailure(attempt.address, now: now(), unit: Double.random(in: 0..<1))
        log(.warning, "connection to \(attempt.address) failed (\(reason)); next try in \(fixed(delay, 1)) s")
        let linked = { [self] in links.link(forDevice: attempt.path) != nil }
        let connected = { [self] in cache.device(attempt.path)?.connected == true }
        let cleanup = AttemptCleanup.after(stage: attempt.stage, connected: connected(), linked: linked(),
                                           failures: backoff.entries[attempt.address]?.failures ?? 0,
                                           servicesTimedOut: servicesTimedOut)
        if disconnect, !cleanup.disconnect, attempt.stage.pastConnect, connected() {
            count { $0.sharedConnectionsKept += 1 }
            log(.info, "leaving the connection to \(attempt.address) up: the peer may be using it")
        }
        // After repeated failures forget bluetoothd's device object (cached GATT database, connection
        // state); discovery creates it afresh. Never while connected: RemoveDevice disconnects first.
        let remove = { [self] in
            guard AttemptCleanup.mayRemove(connected: connected(), linked: linked()) else { return }
            count { $0.devicesRemoved += 1 }
            log(.info, "removing \(attempt.address) from bluetoothd after repeated failures")
            call(path: adapterPath, interface: BlueZ.adapter, member: "RemoveDevice", [.objectPath(attempt.path)]) { _ in }
        }
        if disconnect, cleanup.disconnect {
            call(path: attempt.path, interface: BlueZ.device, member: "Disconnect") { _ in
                if cleanup.removeDevice { remove() }
            }
        } else if disconnect, cleanup.removeDevice {
            remove()
        }
        loop.later { [self] in considerConnecting() }
    }
}
