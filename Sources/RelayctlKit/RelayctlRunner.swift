import ControlProtocol
import MeshProtocol

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
        if case .version = invocation.command {
            out(ProductVersion.line("relayctl"))
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
        case .stats:
            let reply = try client.request(ControlRequest(.stats), as: StatsReport.self)
            guard reply.ok, let report = reply.result else { return refused(reply.error) }
            let unknown = invocation.statsGroups.filter { report.counters[$0] == nil }
            guard unknown.isEmpty else {
                err("relayctl: no counter group \(unknown.joined(separator: ", ")); the groups are: "
                    + report.counters.keys.sorted().joined(separator: " ") + "\n")
                return .usage
            }
            out(json ? String(decoding: ControlJSON.line(Self.only(invocation.statsGroups, of: report)), as: UTF8.self)
                : formatter.stats(report, groups: invocation.statsGroups, all: invocation.statsAll))
            return .ok
        case .metrics(let exposition):
            return try ask(client, ControlRequest(.stats), StatsReport.self, false) {
                MetricsFormatter.render($0, as: exposition)
            }
        case .status: return try ask(client, ControlRequest(.status), StatusReport.self, json, formatter.status)
        case .id: return try ask(client, ControlRequest(.id), IdentityReport.self, json, formatter.identity)
        case .mailbox: return try ask(client, ControlRequest(.mailbox), MailboxReport.self, json, formatter.mailbox)
        case .watch: return try watch(client, socketPath: invocation.socketPath, json: json)
        case .help, .doctor, .version: return .ok
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

    /// The report with only `groups` under `counters` (all when empty).
    static func only(_ groups: [String], of report: StatsReport) -> StatsReport {
        guard !groups.isEmpty else { return report }
        var report = report
        report.counters = report.counters.filter { groups.contains($0.key) }
        return report
    }

    private func watch(_ client: ControlClient, socketPath: String, json: Bool) throws(ControlClientError) -> RelayctlExitCode {
        var view = WatchView()
        if !json {
            // What the node knows first, so that events show names and the peer of a link.
            let status = try client.request(ControlRequest(.status), as: StatusReport.self)
            guard status.ok, let report = status.result else { return refused(status.error) }
            view.me = NodeID(hex: report.nodeID)
            let peers = try client.request(ControlRequest(.peers), as: PeersReport.self)
            if let known = peers.result { view.learn(known) }
            out(formatter.watchHeader(report))
        }
        let reply = try client.request(ControlRequest(.watch), as: WatchReport.self)
        guard reply.ok else { return refused(reply.error) }
        while let line = try client.nextLine(waitForever: true) {
            guard let event = try? ControlJSON.decode(ControlEventLine.self, from: line).event else {
                throw .protocolError("event line is not {\"event\": {...}}")
            }
            if json {
                out(String(decoding: ControlJSON.line(event), as: UTF8.self))
                continue
            }
            out(formatter.event(event, view: &view))
            switch event {
            case .message(_, let from, _, _, _, _) where view.names[from] == nil && from != view.me:
                // A node first heard now: its name, if its profile came, for the next lines (once per node).
                if view.askedAbout.insert(from).inserted { refreshNames(&view, socketPath: socketPath) }
            case .linkUp, .neighbourJoined:
                // Which neighbour a new link leads to, and its name.
                refreshNames(&view, socketPath: socketPath)
            default: break
            }
        }
        return .ok
    }

    /// Asks `peers` on a connection of its own (the watching one only carries events), waiting at
    /// most 2 s; names are a nicety, so a failure changes nothing.
    private func refreshNames(_ view: inout WatchView, socketPath: String) {
        guard let client = try? ControlClient(socketPath: socketPath, timeout: .seconds(2)) else { return }
        defer { client.close() }
        if let peers = try? client.request(ControlRequest(.peers), as: PeersReport.self).result { view.learn(peers) }
    }

    func refused(_ error: ControlErrorBody?) -> RelayctlExitCode {
        let error = error ?? ControlErrorBody(code: .internalError, message: "reply without result or error")
        err("relayctl: meshnoded refused: \(error.message) (\(error.code))\n")
        return .refused
    }
}
