import DBusKit

/// Routing of incoming messages and BlueZ's ObjectManager/Properties signals.
extension BlueZSession {
    /// Handles one incoming message on the loop thread; true when it was a call for our objects.
    func route(_ message: DBusMessage) -> Bool {
        switch message.kind {
        case .methodCall: return answer(message)
        case .signal: handleSignal(message); publishState(); return false
        default: return false
        }
    }

    private func handleSignal(_ message: DBusMessage) {
        guard let interface = message.interface, let member = message.member else { return }
        do throws(DBusError) {
            if interface == "org.freedesktop.DBus", member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus" {
                let args = try message.arguments(limits: .small)
                guard try args.at(0).string() == BlueZ.bus else { return }
                let newOwner = try args.at(2).string()
                if newOwner.isEmpty {
                    bluezGone(reason: "bluetoothd left the bus")
                } else if newOwner != bluezOwner {
                    if bluezOwner != nil { bluezGone(reason: "bluetoothd replaced") }
                    bluezAppeared(owner: newOwner)
                }
                return
            }
            guard let owner = bluezOwner, message.sender == owner, let path = message.path else { return }
            switch (interface, member) {
            case (DBusObjectTree.objectManager, "InterfacesAdded"):
                let args = try message.arguments()
                let object = try args.at(0).objectPath()
                let interfaces = try args.at(1)
                try cache.interfacesAdded(path: object, interfaces: interfaces)
                characteristicAdded(object, interfaces: interfaces)
                objectAdded(object)
            case (DBusObjectTree.objectManager, "InterfacesRemoved"):
                let args = try message.arguments()
                let object = try args.at(0).objectPath()
                let names = try args.at(1).stringArray()
                objectRemoved(object, interfaces: names)
                cache.interfacesRemoved(path: object, interfaces: names)
            case (DBusObjectTree.properties, "PropertiesChanged"):
                let args = try message.arguments()
                let changedInterface = try args.at(0).string()
                let changed = try args.at(1).stringKeyed()
                let invalidated = try args.at(2).stringArray()
                let before = cache.device(path)
                cache.propertiesChanged(path: path, interface: changedInterface, changed: changed, invalidated: invalidated)
                propertiesChanged(path, interface: changedInterface, changed: changed, deviceBefore: before)
            default:
                return
            }
        } catch {
            count { $0.badSignals += 1; $0.dbus.record(error) }
            log(.warning, "ignored a malformed \(member) signal: \(error.summary)")
        }
    }

    /// A characteristic object bluetoothd creates while the device is connected carries the `MTU` of
    /// that live connection (its getter runs as the signal is built): evidence for the connection, as
    /// an exchange signal is. Objects kept from an earlier connection are not added again.
    private func characteristicAdded(_ path: String, interfaces: DBusValue) {
        guard path.hasPrefix(adapterPath + "/"), let device = BlueZObjectCache.devicePath(containing: path),
              connectionMTU.tracks(device),
              let mtu = try? interfaces.interfaceMap()[BlueZ.characteristic]?["MTU"]?.uint16() else { return }
        mtuSeen(device: device, attMTU: Int(mtu))
    }

    private func objectAdded(_ path: String) {
        if path == adapterPath {
            log(.info, "adapter \(config.adapter) appeared")
            setUpAdapter()
        } else if path.hasPrefix(adapterPath + "/"), let device = BlueZObjectCache.devicePath(containing: path) {
            deviceChanged(device, lostConnection: false)
        }
    }

    private func objectRemoved(_ path: String, interfaces: [String]) {
        if interfaces.contains(BlueZ.device) { connectionMTU.disconnected(path) }
        if path == adapterPath, interfaces.contains(BlueZ.adapter) {
            count { $0.adapterRemoved += 1 }
            log(.warning, "adapter \(config.adapter) was removed; waiting for it to return")
            dropLinks(under: adapterPath, reason: "adapter removed")
            cache.removeSubtree(adapterPath)
            resetAdapterState()
            setUpAdapter()
        } else if interfaces.contains(BlueZ.device), let link = links.link(forDevice: path) {
            closeLink(link.id, reason: "device removed", disconnectDevice: false)
        } else if interfaces.contains(BlueZ.device), connecting?.path == path {
            attemptFailed("device removed during setup", disconnect: false)
        }
    }

    private func propertiesChanged(_ path: String, interface: String, changed: [String: DBusValue],
                                   deviceBefore: BlueZObjectCache.Device?) {
        switch interface {
        case BlueZ.adapter where path == adapterPath:
            guard let powered = try? changed["Powered"]?.bool() else { return }
            if powered {
                adapterPoweredOn()
            } else {
                count { $0.adapterPoweredOff += 1 }
                log(cyclingAdapter ? .info : .warning, "adapter powered off; dropping its links")
                dropLinks(under: adapterPath, reason: "adapter powered off")
                if connecting != nil { attemptFailed("adapter powered off", disconnect: false) }
                advState = .unregistered
                discoveryActive = false
                discoveryStarting = false
            }
        case BlueZ.device where path.hasPrefix(adapterPath + "/"):
            // Only an explicit Connected=false ends a link: the Connect reply and the Connected=true
            // signal may arrive in either order, so "not connected yet" is not a loss.
            let connected = try? changed["Connected"]?.bool()
            if connected == true, !connectionMTU.connected(path) { log(.warning, "too many connections to track their ATT MTU") }
            if connected == false { connectionMTU.disconnected(path) }
            // The advertisement goes off-air when a central connects and stays off after it leaves,
            // whether or not a link came of it: register it again on every change.
            if connected != nil { refreshAdvertisement() }
            deviceChanged(path, lostConnection: connected == false)
        case BlueZ.characteristic where path.hasPrefix(adapterPath + "/"):
            guard let device = BlueZObjectCache.devicePath(containing: path) else { return }
            // BlueZ emits the MTU of a characteristic when an exchange on the connection raised it.
            if let mtu = try? changed["MTU"]?.uint16() { mtuSeen(device: device, attMTU: Int(mtu)) }
            guard let link = links.link(forDevice: device) else { return }
            if let value = changed["Value"], path == (link.remoteSlot ?? link.remoteCharacteristic) {
                // A peer that writes to us sends nothing by notification: BlueZ 5.66 notifies every
                // subscriber, so what we see is meant for a client of that peer without a GATT server.
                guard !link.peerWrites else {
                    count { $0.notificationsIgnored += 1 }
                    return
                }
                guard let bytes = try? value.bytes(), bytes.count <= GATTRequest.maxValueLength else {
                    count { $0.badSignals += 1 }
                    return
                }
                count { $0.framesReceived += 1 }
                deliver(.frameReceived(link.id, bytes))
            }
        default:
            return
        }
    }
}
