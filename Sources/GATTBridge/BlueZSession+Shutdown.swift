import Glibc

/// Orderly shutdown: links down, registrations withdrawn, bus closed, loop thread ended.
extension BlueZSession {
    /// Takes every link down, withdraws the registrations, closes the bus and ends the loop thread;
    /// `done` runs on the loop thread last. Called once (``BlueZTransport/stop()``).
    func shutDown(then done: @escaping @Sendable () -> Void) {
        guard !stopping else { return }
        stopping = true
        disarmRecheck()
        publishState()
        if let attempt = connecting {
            loop.cancelTimer(attempt.timer)
            if let timer = attempt.lookupTimer { loop.cancelTimer(timer) }
            connecting = nil
            call(path: attempt.path, interface: BlueZ.device, member: "Disconnect") { _ in }
        }
        for link in links.links.values.sorted(by: { $0.id < $1.id }) {
            closeLink(link.id, reason: "transport stopped", disconnectDevice: true)
        }
        if bluezOwner != nil {
            if advState == .registered {
                call(path: adapterPath, interface: BlueZ.advertisingManager, member: "UnregisterAdvertisement",
                     [.objectPath(gatt.advertisementPath)]) { _ in }
            }
            if appState == .registered {
                call(path: adapterPath, interface: BlueZ.gattManager, member: "UnregisterApplication",
                     [.objectPath(gatt.appPath)]) { _ in }
            }
            if discoveryActive { call(path: adapterPath, interface: BlueZ.adapter, member: "StopDiscovery") { _ in } }
        }
        log(.info, "stopping")
        // Give bluetoothd a moment to answer, then close the bus connection and end the thread.
        loop.after(0.3) { [self] in
            connection?.close()
            connection = nil
            loop.stop(final: done)
        }
    }
}
