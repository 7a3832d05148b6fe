import ControlProtocol
import Dispatch
import Glibc
import MeshProtocol

extension ControlServer {
    /// What one read from a client's socket gave.
    private enum Received {
        /// Bytes arrived; `lines` complete lines (or a too-long line) now wait for answers.
        case data(lines: Int)
        /// Nothing to read now.
        case nothing
        /// The client was closed or dropped; its turn is over.
        case finished
    }

    /// One turn of a client: answers waiting lines and reads more, at most
    /// `maxRequestsPerTurn` requests, then lets the others go first.
    func takeTurn(_ id: UInt64) {
        guard let client = clients[id], !client.backlogged, !client.readingStopped else { return }
        var budget = configuration.maxRequestsPerTurn
        var completedLines = false
        var reads = 0
        reading: while true {
            while budget > 0, let item = client.nextWaiting() {
                budget -= 1
                handle(item, from: client)
                guard clients[id] != nil, !client.closeAfterFlush, !client.readingStopped, !client.backlogged else { return }
            }
            guard budget > 0, reads < Self.readsPerTurn else { break }
            reads += 1
            switch receive(client) {
            case .data(let lines): completedLines = completedLines || lines > 0
            case .nothing: break reading
            case .finished: return
            }
        }
        if client.hasWaitingLines {
            // Not reading this client until its next turn: that time is not its fault.
            count { $0.turnsYielded += 1 }
            disarmTimer(client)
            client.setReading(false)
            scheduleTurn(client)
        } else {
            updateTimer(client, completedLines: completedLines)
            client.setReading(true)
        }
    }

    /// Reads in chunks of this many bytes; a turn reads at most `readsPerTurn` of them.
    static var readBytes: Int { 4096 }
    /// The most reads in one turn.
    static var readsPerTurn: Int { 4 }

    /// Queues another turn for a client that still has lines waiting or may read again.
    func scheduleTurn(_ client: ControlSession) {
        guard !client.turnScheduled else { return }
        client.turnScheduled = true
        let id = client.id
        queue.async { [weak self] in
            guard let self, let client = self.clients[id] else { return }
            client.turnScheduled = false
            self.takeTurn(id)
        }
    }

    /// Reads once (only when no line waits) and queues the lines it completes.
    private func receive(_ client: ControlSession) -> Received {
        guard !client.hasWaitingLines else { return .nothing }
        var buffer = [UInt8](repeating: 0, count: Self.readBytes)
        let received = buffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
        if received < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return .nothing }
            if code != ECONNRESET { count { $0.ioErrors += 1 } }
            drop(client.id)
            return .finished
        }
        if received == 0 {
            endOfInput(client)
            return .finished
        }
        let items = client.lines.append(buffer[..<received])
        client.addWaiting(items)
        return .data(lines: items.count)
    }

    private func handle(_ item: LineBuffer.Item, from client: ControlSession) {
        switch item {
        case .line(let line): answer(client, line)
        case .tooLong: refuse(client, .requestTooLarge, "request line longer than \(configuration.maxRequestBytes) bytes")
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

    func requestTimedOut(_ id: UInt64) {
        guard let client = clients[id], client.timerArmed else { return }
        client.timerArmed = false
        guard client.lines.hasPartialLine, !client.readingStopped, !client.backlogged else { return }
        refuse(client, .requestTimeout, "request line not finished within \(DurationText.format(configuration.requestTimeout))")
    }

    /// Arms the timer when a line starts, re-arms it after progress, disarms it between lines.
    func updateTimer(_ client: ControlSession, completedLines: Bool) {
        if client.lines.hasPartialLine {
            guard !client.timerArmed || completedLines else { return }
            client.timer.schedule(deadline: .now() + dispatchInterval(configuration.requestTimeout))
            client.timerArmed = true
        } else {
            disarmTimer(client)
        }
    }

    /// Stops the partial-line timer.
    func disarmTimer(_ client: ControlSession) {
        guard client.timerArmed else { return }
        client.timer.schedule(deadline: .distantFuture)
        client.timerArmed = false
    }

    private func stopReading(_ client: ControlSession) {
        client.stopReading()
        disarmTimer(client)
    }
}
