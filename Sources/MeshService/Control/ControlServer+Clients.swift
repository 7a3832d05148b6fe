import ControlProtocol
import Dispatch
import Glibc
import MeshProtocol

extension ControlServer {
    /// Sets up the sources of a new client and starts reading.
    func makeClient(id: UInt64, fd: Int32, poller: DescriptorPoller) -> ControlSession {
        let closer = DescriptorCloser(fd: fd, sources: 2)
        let read = poller.makeSource(fd: fd, interest: .readable, queue: queue,
                                     handler: { [weak self] in self?.takeTurn(id) },
                                     cancelHandler: { closer.sourceCancelled(Glibc.close) })
        let write = poller.makeSource(fd: fd, interest: .writable, queue: queue,
                                      handler: { [weak self] in self?.flush(id) },
                                      cancelHandler: { closer.sourceCancelled(Glibc.close) })
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let stuckTimer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.requestTimedOut(id) }
        timer.schedule(deadline: .distantFuture)
        stuckTimer.setEventHandler { [weak self] in self?.checkStuck(id) }
        stuckTimer.schedule(deadline: .distantFuture)
        let client = ControlSession(id: id, fd: fd, readSource: read, writeSource: write, timer: timer,
                                    stuckTimer: stuckTimer, maxLineBytes: configuration.maxRequestBytes)
        count { $0.connectedClients += 1 }
        read.resume()
        timer.resume()
        stuckTimer.resume()
        return client
    }

    /// Forgets a client: stops its watch, ends the connection at once, cancels its sources
    /// (the descriptor is closed by their cancel handlers, next on the server queue).
    func drop(_ id: UInt64) {
        guard let client = clients.removeValue(forKey: id) else { return }
        count { $0.connectedClients -= 1 }
        if let token = client.watchToken { node.removeWatcher(token) }
        client.watchToken = nil
        _ = shutdown(client.fd, Int32(SHUT_RDWR))
        client.cancelSources()
    }

    /// Arms the stuck timer when output starts waiting for the socket; a no-op while armed.
    func watchForStuckOutput(_ client: ControlSession) {
        guard !client.stuckTimerArmed else { return }
        client.stuckTimerArmed = true
        client.stuckTimer.schedule(deadline: .now() + dispatchInterval(configuration.stuckTimeout))
    }

    /// Drops a client whose queued output has not moved for `stuckTimeout`; re-arms otherwise.
    func checkStuck(_ id: UInt64) {
        guard let client = clients[id], client.stuckTimerArmed else { return }
        guard client.pendingBytes > 0 else {
            client.stuckTimerArmed = false
            client.stuckTimer.schedule(deadline: .distantFuture)
            return
        }
        let idle = ContinuousClock.now - client.lastWriteProgress
        guard idle >= configuration.stuckTimeout else {
            client.stuckTimer.schedule(deadline: .now() + dispatchInterval(configuration.stuckTimeout - idle))
            return
        }
        count { $0.stuckClientsDropped += 1 }
        logger?.info(.controlClientError, "control client \(id) dropped: \(client.pendingBytes) bytes of output "
            + "not read for \(DurationText.format(configuration.stuckTimeout))")
        drop(id)
    }

    /// A duration as a dispatch interval, at least one nanosecond.
    func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        .nanoseconds(max(1, Int(duration / .nanoseconds(1))))
    }
}
