import ControlProtocol
import Dispatch
import Glibc

extension ControlServer {
    /// Queues bytes for a client; a client whose queue would pass `maxOutputBytes` is dropped,
    /// and one whose queue passes `pauseOutputBytes` is no longer read until it drains.
    func enqueue(_ bytes: [UInt8], to client: ControlSession) {
        guard clients[client.id] != nil else { return }
        guard client.pendingBytes + bytes.count <= configuration.maxOutputBytes else {
            count { $0.slowClientsDropped += 1 }
            logger?.info(.controlClientError, "control client \(client.id) dropped: output queue over \(configuration.maxOutputBytes) bytes")
            drop(client.id)
            return
        }
        client.output.append(contentsOf: bytes)
        flush(client.id)
        if clients[client.id] != nil, !client.backlogged, client.pendingBytes >= configuration.pauseOutputBytes {
            pauseReading(client)
        }
    }

    /// Writes as much queued output as the socket takes; waits for writability for the rest.
    func flush(_ id: UInt64) {
        guard let client = clients[id] else { return }
        while client.pendingBytes > 0 {
            let written = client.output.withUnsafeBytes { raw in
                send(client.fd, raw.baseAddress! + client.outputStart, client.pendingBytes, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                client.outputStart += written
                client.lastWriteProgress = .now
                continue
            }
            let code = errno
            if written < 0, code == EINTR { continue }
            if written < 0, code == EAGAIN || code == EWOULDBLOCK {
                waitForWritable(client)
                return
            }
            if code != EPIPE, code != ECONNRESET { count { $0.ioErrors += 1 } }
            drop(id)
            return
        }
        client.output.removeAll(keepingCapacity: client.output.capacity <= 65_536)
        client.outputStart = 0
        if client.writing {
            client.writing = false
            client.writeSource.suspend()
        }
        if client.closeAfterFlush {
            drop(id)
            return
        }
        if client.backlogged { resumeReading(client) }
    }

    /// The socket is full: resume the write source, watch for a stuck client, and read
    /// again if the backlog has drained to half the pause threshold.
    private func waitForWritable(_ client: ControlSession) {
        if !client.writing {
            client.writing = true
            client.writeSource.resume()
        }
        watchForStuckOutput(client)
        if client.backlogged, client.pendingBytes <= configuration.pauseOutputBytes / 2 { resumeReading(client) }
    }

    /// Stops reading and answering a client's requests until its output drains.
    private func pauseReading(_ client: ControlSession) {
        client.backlogged = true
        client.setReading(false)
        disarmTimer(client)
        count { $0.readsPaused += 1 }
        logger?.debug(.controlClientError, "control client \(client.id): \(client.pendingBytes) bytes queued; "
            + "not reading its requests until they are read")
    }

    /// Serves a paused client again; its waiting lines come first.
    private func resumeReading(_ client: ControlSession) {
        client.backlogged = false
        scheduleTurn(client)
    }
}
