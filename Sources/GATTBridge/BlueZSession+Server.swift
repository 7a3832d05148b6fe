import DBusKit

/// Answers bluetoothd's calls on our exported GATT application and advertisement.
extension BlueZSession {
    /// Answers a method call if it targets one of our objects (or a path on the way to them).
    func answer(_ message: DBusMessage) -> Bool {
        guard let path = message.path, let member = message.member else { return false }
        let trees = [gatt.app, gatt.advertisement]
        let ancestorOnly = !trees.contains { $0.objects[path] != nil || $0.root == path }
        guard trees.contains(where: { $0.isKnown(path) }) else { return false }
        let arguments: DBusArguments
        do throws(DBusError) {
            arguments = try message.arguments()
        } catch {
            count { $0.badRequests += 1; $0.dbus.record(error) }
            reply(to: message, .error(name: "org.freedesktop.DBus.Error.InvalidArgs", text: error.summary))
            return true
        }
        if ancestorOnly {
            if member == "Introspect" {
                reply(to: message, .reply([.string(ancestorXML(path, trees: trees))]))
            } else {
                reply(to: message, .error(name: "org.freedesktop.DBus.Error.UnknownObject", text: "no object \(path)"))
            }
            return true
        }
        for tree in trees where tree.objects[path] != nil || tree.root == path {
            if let outcome = tree.answerStandard(path: path, interface: message.interface, member: member,
                                                 arguments: arguments) {
                reply(to: message, outcome)
                return true
            }
        }
        switch gatt.request(path: path, interface: message.interface, member: member, arguments: arguments) {
        case .none:
            reply(to: message, .error(name: "org.freedesktop.DBus.Error.UnknownMethod", text: "no method \(member)"))
        case .failure(let error)?:
            count { $0.badRequests += 1; $0.dbus.record(error) }
            reply(to: message, .error(name: "org.bluez.Error.InvalidArguments", text: error.summary))
        case .success(let request)?:
            guard message.sender == bluezOwner else {
                count { $0.badRequests += 1 }
                reply(to: message, .error(name: "org.bluez.Error.NotAuthorized", text: "only bluetoothd may call this"))
                return true
            }
            reply(to: message, serve(request))
        }
        return true
    }

    private func reply(to message: DBusMessage, _ outcome: DBusCallOutcome) {
        guard !message.noReplyExpected else { return }
        do throws(DBusError) {
            switch outcome {
            case .reply(let values): connection?.send(try message.makeReturn(values))
            case .error(let name, let text): connection?.send(try message.makeError(name: name, text: text))
            }
        } catch {
            count { $0.dbus.record(error) }
        }
    }

    private func ancestorXML(_ path: String, trees: [DBusObjectTree]) -> String {
        let children = Set(trees.flatMap { $0.children(of: path) }).sorted()
        let nodes = children.map { "  <node name=\"\(DBusIntrospection.escape($0))\"/>" }
        return ([DBusIntrospection.doctype, "<node>"] + nodes + ["</node>"]).joined(separator: "\n") + "\n"
    }

    private func serve(_ request: GATTRequest) -> DBusCallOutcome {
        switch request {
        case .write(let bytes, let options):
            return incomingWrite(bytes, options)
        case .startNotify, .stopNotify:
            let on = request == .startNotify
            notifying = on
            if let changed = gatt.setNotifying(on) {
                emit(path: gatt.messagePath, interface: DBusObjectTree.properties, member: "PropertiesChanged", changed)
            }
            log(.debug, on ? "a peer subscribed to our message characteristic" : "no subscriber left")
            if on { loop.later { [self] in releaseAllHeld() } }
            return .reply([])
        case .slotWrite(let slot, let bytes, let options):
            return slotWrite(slot, bytes, options)
        case .slotNotify(let slot, let on):
            if on { slotsNotifying.insert(slot) } else { slotsNotifying.remove(slot) }
            if let changed = gatt.setNotifying(on, slot: slot) {
                emit(path: gatt.slotPaths[slot], interface: DBusObjectTree.properties, member: "PropertiesChanged", changed)
            }
            log(.debug, on ? "a peer subscribed to client slot \(slot)" : "client slot \(slot) has no subscriber left")
            if on { loop.later { [self] in releaseAllHeld() } }
            return .reply([])
        case .readMessage:
            return .reply([.bytes([])])
        case .readProfile(let options):
            let (value, discoverable) = shared.withLock { ($0.profile, $0.discoverable) }
            guard discoverable else {
                count { $0.profileReadsRefused += 1 }
                return .error(name: "org.bluez.Error.NotPermitted", text: "not discoverable")
            }
            guard options.offset <= value.count else {
                return .error(name: "org.bluez.Error.InvalidOffset", text: "offset \(options.offset)")
            }
            return .reply([.bytes(Array(value[options.offset...]))])
        case .unsupported(let member):
            return .error(name: "org.bluez.Error.NotSupported", text: "\(member) not supported")
        case .releaseAdvertisement:
            log(.info, "bluetoothd released our advertisement")
            advState = .unregistered
            refreshAdvertisement(after: 1)
            return .reply([])
        }
    }

    /// A peer wrote to a client slot's characteristic: claim the slot (the device that wrote first holds
    /// it), refuse it when another device holds it, and deliver a non-empty value as a frame.
    private func slotWrite(_ slot: Int, _ bytes: [UInt8], _ options: GATTOptions) -> DBusCallOutcome {
        guard let device = options.device, device.hasPrefix(adapterPath + "/") else {
            count { $0.badRequests += 1 }
            return .error(name: "org.bluez.Error.InvalidArguments", text: "write without a device")
        }
        let (claim, expired) = slots.claim(slot: slot, device: device, now: now())
        if expired > 0 { count { $0.clientSlotClaimsExpired += expired } }
        switch claim {
        case .granted:
            count { $0.clientSlotClaims += 1 }
            log(.info, "client slot \(slot) claimed by \(cache.device(device)?.address ?? device)")
            if links.link(forDevice: device) != nil { slots.linked(device: device) }
        case .held:
            break
        case .taken(let exhausted):
            count { $0.clientSlotsRefused += 1; if exhausted { $0.clientSlotsExhausted += 1 } }
            return .error(name: "org.bluez.Error.NotPermitted", text: exhausted ? "every client slot is taken" : "slot taken")
        case .holdsAnother(let other):
            count { $0.clientSlotsRefused += 1 }
            return .error(name: "org.bluez.Error.NotPermitted", text: "this device holds slot \(other)")
        case .noSuchSlot:
            count { $0.badRequests += 1 }
            return .error(name: "org.bluez.Error.NotSupported", text: "no slot \(slot)")
        }
        guard !bytes.isEmpty else { return .reply([]) }
        let outcome = incomingWrite(bytes, options)
        if links.link(forDevice: device) != nil { slots.linked(device: device) }
        return outcome
    }

    /// A peer wrote a frame to our message characteristic: deliver it on that device's link.
    private func incomingWrite(_ bytes: [UInt8], _ options: GATTOptions) -> DBusCallOutcome {
        guard let device = options.device, device.hasPrefix(adapterPath + "/"),
              let address = cache.device(device)?.address ?? AddressFilter.address(fromDevicePath: device) else {
            count { $0.badRequests += 1 }
            return .error(name: "org.bluez.Error.InvalidArguments", text: "write without a device")
        }
        guard options.offset == 0 else {
            count { $0.badRequests += 1 }
            return .error(name: "org.bluez.Error.InvalidOffset", text: "frames are never split across writes")
        }
        // The write's MTU is bluetoothd's MTU of the connection the peer wrote on: evidence for it.
        if let mtu = options.mtu { mtuSeen(device: device, attMTU: mtu) }
        var link = links.link(forDevice: device)
        if link == nil {
            link = openLink(device: device, address: address, attMTU: options.mtu, wrote: true)
            if link != nil { slots.linked(device: device) }
        }
        guard let link else { return .error(name: "org.bluez.Error.NotPermitted", text: "not accepted") }
        if links.setPeerWrites(device: device) {
            log(.debug, "\(link.id) peer writes to us; its notifications are ignored from now on")
        }
        count { $0.framesReceived += 1 }
        deliver(.frameReceived(link.id, bytes))
        return .reply([])
    }
}
