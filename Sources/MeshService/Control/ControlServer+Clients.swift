import ControlProtocol
import Dispatch
import Glibc

extension ControlServer {
    /// Sets up the sources of a new client and starts reading.
    func makeClient(id: UInt64, fd: Int32) -> ControlSession {
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let closer = DescriptorCloser(fd: fd, sources: 2)
        read.setEventHandler { [weak self] in self?.readable(id) }
        read.setCancelHandler { closer.sourceCancelled(Glibc.close) }
        write.setEventHandler { [weak self] in self?.flush(id) }
        write.setCancelHandler { closer.sourceCancelled(Glibc.close) }
        timer.setEventHandler { [weak self] in self?.requestTimedOut(id) }
        timer.schedule(deadline: .distantFuture)
        let client = ControlSession(id: id, fd: fd, readSource: read, writeSource: write, timer: timer,
                                   maxLineBytes: settings.maxRequestBytes)
        read.resume()
        timer.resume()
        return client
    }

    /// Reads what is available, answers complete lines, and keeps the partial-line timer right.
    func readable(_ id: UInt64) {
        guard let client = clients[id], !client.readingStopped else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {
            let received = buffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if received < 0 {
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { break }
                if code != ECONNRESET { count { $0.ioErrors += 1 } }
                drop(id)
                return
            }
            if received == 0 {
                endOfInput(client)
                return
            }
            let items = client.lines.append(buffer[..<received])
            for item in items {
                guard clients[id] != nil, !client.closeAfterFlush else { return }
                switch item {
                case .line(let line): answer(client, line)
                case .tooLong: refuse(client, .requestTooLarge, "request line longer than \(settings.maxRequestBytes) bytes")
                }
            }
            guard clients[id] != nil, !client.closeAfterFlush else { return }
            updateTimer(client, completedLines: !items.isEmpty)
        }
    }

    private func answer(_ client: ControlSession, _ line: [UInt8]) {
        let outcome = handler.handle(line)
        count { counters in
            counters.requests += 1
            switch outcome.failure {
            case .badRequest?, .unknownCommand?: counters.badRequests += 1
            case nil: break
            default: counters.nodeErrors += 1
            }
        }
        if let failure = outcome.failure, failure == .badRequest || failure == .unknownCommand {
            logger?.debug(.controlClientError, "control client \(client.id): \(failure.rawValue)")
        }
        // Register before replying, so every event after the client reads the reply reaches it.
        if outcome.startsWatch, client.watchToken == nil {
            count { $0.watchesStarted += 1 }
            let id = client.id
            client.watchToken = node.addWatcher { [weak self] event in
                guard let server = self else { return }
                server.queue.async { [weak server] in server?.deliver(event, to: id) }
            }
        }
        enqueue(outcome.reply, to: client)
    }

    private func deliver(_ event: WatchEvent, to id: UInt64) {
        guard let client = clients[id], client.watchToken != nil else { return }
        enqueue(ControlJSON.line(ControlEventLine(event: event)), to: client)
    }

    /// Sends an error reply, stops reading, and closes once the reply is written.
    private func refuse(_ client: ControlSession, _ code: ControlErrorCode, _ message: String) {
        count { counters in
            switch code {
            case .requestTooLarge: counters.oversizedRequests += 1
            case .requestTimeout: counters.timedOutRequests += 1
            default: counters.incompleteRequests += 1
            }
        }
        logger?.info(.controlClientError, "control client \(client.id): \(code.rawValue): \(message)")
        enqueue(ControlJSON.errorLine(id: nil, code: code, message: message), to: client)
        stopReading(client)
        client.closeAfterFlush = true
        if clients[client.id] != nil, client.pendingBytes == 0 { drop(client.id) }
    }

    private func endOfInput(_ client: ControlSession) {
        if client.lines.hasPartialLine {
            refuse(client, .badRequest, "incomplete request: input ended before the newline")
            return
        }
        stopReading(client)
        guard client.watchToken == nil else { return }
        client.closeAfterFlush = true
        if client.pendingBytes == 0 { drop(client.id) }
    }

    private func requestTimedOut(_ id: UInt64) {
        guard let client = clients[id], client.timerArmed else { return }
        client.timerArmed = false
        guard client.lines.hasPartialLine, !client.readingStopped else { return }
        refuse(client, .requestTimeout, "request line not finished within \(ConfigValue.format(settings.requestTimeout))")
    }

    /// Arms the timer when a line starts, re-arms it after progress, disarms it between lines.
    private func updateTimer(_ client: ControlSession, completedLines: Bool) {
        if client.lines.hasPartialLine {
            guard !client.timerArmed || completedLines else { return }
            let nanoseconds = Int(settings.requestTimeout / .nanoseconds(1))
            client.timer.schedule(deadline: .now() + .nanoseconds(nanoseconds))
            client.timerArmed = true
        } else if client.timerArmed {
            client.timer.schedule(deadline: .distantFuture)
            client.timerArmed = false
        }
    }

    private func stopReading(_ client: ControlSession) {
        guard !client.readingStopped else { return }
        client.readingStopped = true
        client.readSource.cancel()
        client.timer.schedule(deadline: .distantFuture)
        client.timerArmed = false
    }

    /// Queues bytes for a client; a client whose queue would pass the limit is dropped.
    func enqueue(_ bytes: [UInt8], to client: ControlSession) {
        guard clients[client.id] != nil else { return }
        guard client.pendingBytes + bytes.count <= settings.maxOutputBytes else {
            count { $0.slowClientsDropped += 1 }
            logger?.info(.controlClientError, "control client \(client.id) dropped: output queue over \(settings.maxOutputBytes) bytes")
            drop(client.id)
            return
        }
        client.output.append(contentsOf: bytes)
        flush(client.id)
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
                continue
            }
            let code = errno
            if written < 0, code == EINTR { continue }
            if written < 0, code == EAGAIN || code == EWOULDBLOCK {
                if !client.writing {
                    client.writing = true
                    client.writeSource.resume()
                }
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
        if client.closeAfterFlush { drop(id) }
    }

    /// Forgets a client: stops its watch, cancels its sources, closes its socket.
    func drop(_ id: UInt64) {
        guard let client = clients.removeValue(forKey: id) else { return }
        if let token = client.watchToken { node.removeWatcher(token) }
        client.watchToken = nil
        client.cancelSources()
    }
}
