import DBusKit
import Glibc

/// Adapter setup: power, GATT application and advertisement registration, discovery.
extension BlueZSession {
    /// Brings everything up on the adapter as far as its state allows; safe to call repeatedly.
    func setUpAdapter() {
        guard bluezOwner != nil, !stopping else { return }
        guard cache.adapter(adapterPath) != nil else {
            // InterfacesAdded brings it at once; read bluetoothd's objects again now and then in case that is missed.
            guard recheck?.what != .adapter, let owner = bluezOwner else { return }
            let delay = armRecheck(.adapter) { [self] in
                if bluezOwner == owner, cache.adapter(adapterPath) == nil { loadObjects(owner: owner) }
            }
            log(quietRecheck(.adapter) ? .debug : .warning,
                "adapter \(config.adapter) not present; waiting for it (looking again in \(Self.seconds(delay)))")
            return
        }
        found(.adapter)
        guard cache.isPowered(adapterPath) else {
            guard config.powerOnAdapter, !powerRequested, recheck?.what != .power else { return }
            powerRequested = true
            log(.info, "adapter is off; powering it on")
            call(path: adapterPath, interface: DBusObjectTree.properties, member: "Set",
                 [.string(BlueZ.adapter), .string("Powered"), .variant(.boolean(true))]) { [self] result in
                if case .failure(let error) = result {
                    powerRequested = false
                    let delay = armRecheck(.power) { [self] in setUpAdapter() }
                    log(.warning, "could not power the adapter on (\(error.summary)); trying again in \(Self.seconds(delay))")
                }
            }
            return
        }
        found(.power)
        guard addressMayCarry(gatt.localName) else { return }
        registerApplication()
        registerAdvertisement()
        if reaperTimer == nil { reaperTimer = loop.after(config.connectTimeout) { [self] in reapStaleConnections() } }
        for device in cache.devices(under: adapterPath) where device.connected && device.servicesResolved {
            deviceChanged(device.path, lostConnection: false)
        }
        considerConnecting()
    }

    /// Registers the GATT application, unless this is a client without a GATT server (then nothing is
    /// registered or advertised, and frames arrive as notifications on the links we dial).
    func registerApplication() {
        guard config.gattServer, adapterReady, appState == .unregistered else { return }
        appState = .registering
        call(path: adapterPath, interface: BlueZ.gattManager, member: "RegisterApplication",
             [.objectPath(gatt.appPath), .propertyMap([:])]) { [self] result in
            switch result {
            case .success:
                appState = .registered
                retries.recordSuccess("app")
                count { $0.applicationRegistrations += 1 }
                log(.info, "GATT application registered at \(gatt.appPath)")
                registerAdvertisement()
            case .failure(.remote("org.bluez.Error.AlreadyExists", _)):
                appState = .registered
                registerAdvertisement()
            case .failure(let error):
                appState = .unregistered
                count { $0.registrationFailures += 1 }
                let delay = retries.recordFailure("app", now: now(), unit: Double.random(in: 0..<1))
                log(.warning, "RegisterApplication failed (\(error.summary)); retrying in \(fixed(delay, 1)) s")
                loop.after(delay) { [self] in registerApplication() }
            }
        }
    }

    /// Registers the advertisement once the application is registered: a peer that found us must find
    /// our service when it connects.
    func registerAdvertisement() {
        guard adapterReady, advState == .unregistered, appState == .registered, !linksFull else { return }
        advState = .registering
        call(path: adapterPath, interface: BlueZ.advertisingManager, member: "RegisterAdvertisement",
             [.objectPath(gatt.advertisementPath), .propertyMap([:])]) { [self] result in
            switch result {
            case .success:
                advState = .registered
                retries.recordSuccess("adv")
                count { $0.advertisementRegistrations += 1 }
                log(.info, "advertising \(gatt.localName)")
                if advertisementStale { refreshAdvertisement(after: 0) }
            case .failure(.remote("org.bluez.Error.AlreadyExists", _)):
                advState = .registered
                if advertisementStale { refreshAdvertisement(after: 0) }
            case .failure(let error):
                advState = .unregistered
                count { $0.registrationFailures += 1 }
                let delay = retries.recordFailure("adv", now: now(), unit: Double.random(in: 0..<1))
                log(.warning, "RegisterAdvertisement failed (\(error.summary)); retrying in \(fixed(delay, 1)) s")
                loop.after(delay) { [self] in registerAdvertisement() }
            }
        }
    }

    /// Takes the name the node set (``BlueZTransport/setLocalName(_:)``) into the advertisement and,
    /// when it changed, registers the advertisement again at once: bluetoothd reads `LocalName` only
    /// when an advertisement is registered.
    func localNameChanged() {
        guard let name = shared.withLock({ $0.localName }), gatt.setLocalName(name) else { return }
        count { $0.advertisedNameChanges += 1 }
        // A client without a GATT server dials from the address too: it changes it all the same.
        guard adapterReady, addressMayCarry(name), config.gattServer else { return }
        refreshAdvertisement(after: 0)
    }

    /// Whether the adapter may advertise, scan and dial under `name` now (``AddressRotation``); false
    /// while a power cycle changes its address (``setUpAdapter()`` runs again once it is back on).
    func addressMayCarry(_ name: String) -> Bool {
        guard !cyclingAdapter else { return false }
        switch rotation.use(name: name, now: now()) {
        case .proceed:
            return true
        case .proceedTooSoon:
            count { $0.addressRotationsSkipped += 1 }
            log(.warning, "the address keeps its previous name beside \(name): the last power cycle was under \(Int(rotation.minimumInterval)) s ago")
            return true
        case .cycle:
            cycleAdapter(for: name)
            return false
        }
    }

    /// Powers the adapter off and on so that the kernel gives it a new resolvable private address
    /// (docs/BLUEZ.md, "Addresses"); every link of the adapter drops, and the engine re-links.
    private func cycleAdapter(for name: String) {
        cyclingAdapter = true
        powerRequested = true
        log(.info, "powering the adapter off and on: a new address for the name \(name)")
        // The kernel keeps an advertising instance through a power cycle and starts it again at
        // power-on, before our registration under the new name: withdrawn first, the new address
        // never carries the old name (also when our records say none is registered).
        call(path: adapterPath, interface: BlueZ.advertisingManager, member: "UnregisterAdvertisement",
             [.objectPath(gatt.advertisementPath)]) { [self] _ in
            advState = .unregistered
            guard cyclingAdapter else { return }
            powerOffForCycle(name)
        }
    }

    /// The power-off half of ``cycleAdapter(for:)``, once the advertisement is withdrawn.
    private func powerOffForCycle(_ name: String) {
        call(path: adapterPath, interface: DBusObjectTree.properties, member: "Set",
             [.string(BlueZ.adapter), .string("Powered"), .variant(.boolean(false))]) { [self] result in
            guard cyclingAdapter else { return }
            switch result {
            case .success:
                count { $0.addressRotations += 1 }
                powerOnAfterCycle()
            case .failure(let error):
                // A call that timed out may still power the adapter off later (a bluetoothd slow under
                // load): power it on again either way, or it could stay off for good. The Powered signal,
                // or the reply when the adapter never went off, ends the cycle.
                rotation.cycleFailed(name: name)
                count { $0.addressRotationsSkipped += 1 }
                log(.warning, "could not power the adapter off (\(error.summary)); powering it on, its address may keep its previous name")
                powerOnAfterCycle()
            }
        }
    }

    /// The adapter is on (its `Powered` signal, or a power cycle's power-on answered while it was on):
    /// a cycle under way ends and everything comes up.
    func adapterPoweredOn() {
        log(.info, "adapter powered on")
        powerRequested = false
        cyclingAdapter = false
        rotation.poweredOn()
        setUpAdapter()
        refreshAdvertisement(after: 0)
    }

    /// The second half of ``cycleAdapter(for:)``, tried again every 2 s until the adapter is on.
    private func powerOnAfterCycle() {
        call(path: adapterPath, interface: DBusObjectTree.properties, member: "Set",
             [.string(BlueZ.adapter), .string("Powered"), .variant(.boolean(true))]) { [self] result in
            guard cyclingAdapter else { return }
            guard case .failure(let error) = result else {
                // Already on (the power-off never happened): no Powered signal will come.
                if cache.isPowered(adapterPath) { adapterPoweredOn() }
                return
            }
            log(.warning, "could not power the adapter on after changing its address (\(error.summary)); trying again in 2 s")
            loop.after(2) { [self] in if cyclingAdapter, !cache.isPowered(adapterPath) { powerOnAfterCycle() } }
        }
    }

    /// Registers the advertisement again (it goes off-air when a central connects), debounced.
    func refreshAdvertisement(after delay: Double = 1) {
        if let timer = advRefreshTimer { loop.cancelTimer(timer) }
        advRefreshTimer = loop.after(delay) { [self] in
            advRefreshTimer = nil
            guard adapterReady else { return }
            // A registration under way may carry the old name: go again when it is done.
            guard advState != .registering else { advertisementStale = true; return }
            advertisementStale = false
            guard advState == .registered else { registerAdvertisement(); return }
            advState = .registering
            if linksFull { log(.info, "\(links.links.count) links is the limit: not advertising until one ends") }
            call(path: adapterPath, interface: BlueZ.advertisingManager, member: "UnregisterAdvertisement",
                 [.objectPath(gatt.advertisementPath)]) { [self] _ in
                advState = .unregistered
                registerAdvertisement()
            }
        }
    }

    /// Whether the adapter's links fill the connection limit: it then does not advertise, so peers do
    /// not dial a node that would refuse them (each refusal is a connection made and dropped).
    var linksFull: Bool { links.links.count >= config.maxConnections }

    /// Starts LE discovery filtered to our service, unless connecting or at the connection limit.
    func ensureDiscovery() {
        guard adapterReady, !discoveryActive, !discoveryStarting, connecting == nil, !atConnectionLimit else { return }
        discoveryStarting = true
        let filter = DBusValue.propertyMap([
            "UUIDs": .stringArray([config.serviceUUID]), "Transport": .string("le"),
        ])
        call(path: adapterPath, interface: BlueZ.adapter, member: "SetDiscoveryFilter", [filter]) { [self] result in
            if case .failure(let error) = result { log(.warning, "SetDiscoveryFilter failed: \(error.summary)") }
            call(path: adapterPath, interface: BlueZ.adapter, member: "StartDiscovery") { [self] result in
                discoveryStarting = false
                switch result {
                case .success, .failure(.remote("org.bluez.Error.InProgress", _)):
                    discoveryActive = true
                    log(.debug, "discovery on")
                    if connecting != nil || atConnectionLimit { stopDiscovery {} }
                case .failure(let error):
                    log(.warning, "StartDiscovery failed (\(error.summary)); retrying")
                    loop.after(3) { [self] in ensureDiscovery() }
                }
            }
        }
    }

    /// Stops our discovery session, then runs `then` (also when there was none).
    func stopDiscovery(then: @escaping () -> Void) {
        guard discoveryActive else { then(); return }
        discoveryActive = false
        call(path: adapterPath, interface: BlueZ.adapter, member: "StopDiscovery") { [self] result in
            if case .failure(let error) = result { log(.debug, "StopDiscovery: \(error.summary)") }
            then()
        }
    }

    /// Whether links plus the attempt in progress fill the connection limit.
    var atConnectionLimit: Bool {
        links.links.count + (connecting == nil ? 0 : 1) >= config.maxConnections
    }
}
