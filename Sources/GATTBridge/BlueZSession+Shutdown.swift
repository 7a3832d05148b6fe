import Foundation

/// Orderly shutdown: links down, registrations withdrawn, bus closed, loop thread ended.
extension BlueZSession {
    /// Shuts down on the loop thread and waits up to `wait` seconds for it (unless called on it).
    func shutDown(wait: Double) {
        post { $0.shutDownOnLoop() }
        guard !loop.isCurrent else { return }
        _ = finished.wait(timeout: .now() + wait)
    }

    private func shutDownOnLoop() {
        guard !stopping else { return }
        stopping = true
        if let attempt = connecting {
            loop.cancelTimer(attempt.timer)
            if let timer = attempt.lookupTimer { loop.cancelTimer(timer) }
            connecting = nil
            call(path: attempt.path, interface: BlueZ.device, member: "Disconnect") { _ in }
        }
        let links = shared.withLock { $0.links.links.values.sorted { $0.id < $1.id } }
        for link in links { closeLink(link.id, reason: "transport stopped", disconnectDevice: true) }
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
            loop.stop { [self] in finished.signal() }
        }
    }
}
