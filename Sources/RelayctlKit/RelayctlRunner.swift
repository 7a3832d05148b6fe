import ControlProtocol

/// Runs one relayctl invocation against the control socket and returns its exit code.
///
/// Output goes through `out` and `err` (stdout and stderr in the tool, buffers in tests).
public struct RelayctlRunner: Sendable {
    /// Writes to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes to standard error.
    public var err: @Sendable (String) -> Void
    /// Renders human output.
    public var formatter: ReportFormatter
    /// How long to wait for the daemon before giving up (not used while watching).
    public var timeout: Duration
    /// Waits between polls of a key lookup; true when the operator interrupted (Ctrl-C) instead.
    /// `InterruptiblePause.wait` in the tool; tests pass their own.
    public var pause: @Sendable (Duration) -> Bool

    /// Creates a runner.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        formatter: ReportFormatter = ReportFormatter(), timeout: Duration = .seconds(10),
        pause: @escaping @Sendable (Duration) -> Bool = InterruptiblePause.wait
    ) {
        self.out = out
        self.err = err
        self.formatter = formatter
        self.timeout = timeout
        self.pause = pause
    }

    /// Runs the invocation.
    public func run(_ invocation: RelayctlInvocation) -> RelayctlExitCode {
        if case .help(let topic) = invocation.command {
            out(RelayctlHelp.text(topic))
            return .ok
        }
        if case .doctor(let config, let socket) = invocation.command {
            return doctor(configPath: config, socket: socket, json: invocation.json)
        }
        do throws(ControlClientError) {
            let client = try ControlClient(socketPath: invocation.socketPath, timeout: timeout)
            defer { client.close() }
            return try perform(invocation, client: client)
        } catch {
            err("relayctl: \(error)\n")
            switch error {
            case .cannotConnect: return .unavailable
            case .io: return .ioError
            case .protocolError: return .protocolError
            }
        }
    }

    private func perform(_ invocation: RelayctlInvocation, client: ControlClient) throws(ControlClientError) -> RelayctlExitCode {
        let json = invocation.json
        switch invocation.command {
        case .send(let text, let typed, let detach):
            var to: String?
            if let typed {
                switch try resolveNode(typed, client: client) {
                case .resolved(let id): to = id
                case .failed(let code): return code
                }
            }
            let reply = try client.request(ControlRequest(.send, text: text, to: to), as: SendReport.self)
            guard reply.ok, let sent = reply.result else { return refused(reply.error) }
            if sent.waitingForKey == true, let to {
                return try awaitSend(sent, to: to, detach: detach, client: client, json: json)
            }
            if sent.heldInMailbox == true, !json {
                err("relayctl: the recipient is not in range; the message is held in this node's mailbox "
                    + "and handed over when it is back (relayctl mailbox)\n")
            }
            if sent.heldFor > 0, !json {
                err("relayctl: sent to \(sent.sentTo) neighbour(s) now; held for \(sent.heldFor) whose link is down, "
                    + "sent when it is back\n")
            }
            out(json ? String(decoding: ControlJSON.line(sent), as: UTF8.self) : sent.messageID + "\n")
            return .ok
        case .cancel(let typed): return try cancel(typed, client: client, json: json)
        case .lookup(let typed):
            switch try resolveNode(typed, client: client) {
            case .resolved(let node): return try lookup(node, client: client, json: json)
            case .failed(let code): return code
            }
        case .peers: return try ask(client, ControlRequest(.peers), PeersReport.self, json, formatter.peers)
        case .stats: return try ask(client, ControlRequest(.stats), StatsReport.self, json, formatter.stats)
        case .metrics(let exposition):
            return try ask(client, ControlRequest(.stats), StatsReport.self, false) {
                MetricsFormatter.render($0, as: exposition)
            }
        case .status: return try ask(client, ControlRequest(.status), StatusReport.self, json, formatter.status)
        case .id: return try ask(client, ControlRequest(.id), IdentityReport.self, json, formatter.identity)
        case .mailbox: return try ask(client, ControlRequest(.mailbox), MailboxReport.self, json, formatter.mailbox)
        case .watch: return try watch(client, json: json)
        case .help, .doctor: return .ok
        }
    }

    private func ask<Result: Codable & Sendable>(
        _ client: ControlClient, _ request: ControlRequest, _ type: Result.Type, _ json: Bool,
        _ render: (Result) -> String
    ) throws(ControlClientError) -> RelayctlExitCode {
        let reply = try client.request(request, as: type)
        guard reply.ok, let result = reply.result else { return refused(reply.error) }
        out(json ? String(decoding: ControlJSON.line(result), as: UTF8.self) : render(result))
        return .ok
    }

    private func watch(_ client: ControlClient, json: Bool) throws(ControlClientError) -> RelayctlExitCode {
        let reply = try client.request(ControlRequest(.watch), as: WatchReport.self)
        guard reply.ok else { return refused(reply.error) }
        while let line = try client.nextLine(waitForever: true) {
            guard let event = try? ControlJSON.decode(ControlEventLine.self, from: line).event else {
                throw .protocolError("event line is not {\"event\": {...}}")
            }
            out(json ? String(decoding: ControlJSON.line(event), as: UTF8.self) : formatter.event(event))
        }
        return .ok
    }

    func refused(_ error: ControlErrorBody?) -> RelayctlExitCode {
        let error = error ?? ControlErrorBody(code: .internalError, message: "reply without result or error")
        err("relayctl: meshnoded refused: \(error.message) (\(error.code))\n")
        return .refused
    }
}
