import ControlProtocol
import Doctor
import Glibc

/// Renders control results as the text relayctl prints.
public struct ReportFormatter: Sendable {
    /// Formats an event time (seconds since the epoch) for `watch`.
    public var clock: @Sendable (Double) -> String

    /// Creates a formatter; by default times print as local `HH:MM:SS`.
    public init(clock: @escaping @Sendable (Double) -> String = ReportFormatter.localTime) {
        self.clock = clock
    }

    /// `HH:MM:SS` in the local time zone.
    public static func localTime(_ seconds: Double) -> String {
        var time = time_t(seconds.isFinite ? seconds : 0)
        var parts = tm()
        localtime_r(&time, &parts)
        let pad = { (value: Int32) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }

    /// `3d 4h`, `2h 5m`, `7m 3s` or `42s`.
    public static func duration(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int(max(0, seconds.rounded())) : 0
        let (days, hours, minutes, secs) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60)
        if days > 0 { return "\(days)d \(hours)h" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        if minutes > 0 { return "\(minutes)m \(secs)s" }
        return "\(secs)s"
    }

    /// `mesh time, this clock 3d 0h behind (2 neighbours)` or `own clock, not synchronised (1 neighbour)`.
    public static func clock(_ report: ClockReport) -> String {
        let heard = "(\(report.votes) neighbour\(report.votes == 1 ? "" : "s"))"
        guard report.synchronised else { return "own clock, not synchronised \(heard)" }
        let offset = report.offsetMilliseconds
        let off = abs(offset) < 1000 ? "in step" : duration(Double(offset.magnitude) / 1000) + (offset > 0 ? " behind" : " ahead")
        return "mesh time, this clock \(off) \(heard)"
    }

    /// `12.3 MiB`-style sizes.
    public static func bytes(_ count: UInt64) -> String { Doctor.bytes(count) }

    /// Neighbours, then remote nodes.
    public func peers(_ report: PeersReport) -> String {
        var neighbours = TextTable(headers: ["NODE", "NAME", "ROLE", "LINKS", "MTU", "RSSI", "HEARD"],
                                   alignments: [.left, .left, .left, .left, .right, .right, .right])
        for node in report.neighbours {
            let links = node.links.map { "#\($0.linkID) \($0.role) \($0.address)" }.joined(separator: ", ")
            let mtu = node.links.map { String($0.mtu) }.joined(separator: ",")
            let rssi = node.links.compactMap { $0.rssi.map(String.init) }.joined(separator: ",")
            let name = [node.icon, node.name].compactMap { $0 }.joined(separator: " ")
            neighbours.append([node.shortID, name.isEmpty ? "?" : name, node.role ?? "?", links.isEmpty ? "-" : links,
                               mtu.isEmpty ? "-" : mtu, rssi.isEmpty ? "-" : rssi,
                               Self.duration(node.lastHeardSecondsAgo) + " ago"])
        }
        var remote = TextTable(headers: ["NODE", "NAME", "HOPS", "HEARD"], alignments: [.left, .left, .right, .right])
        for node in report.remote {
            remote.append([node.shortID, node.name ?? "?", String(node.hops), Self.duration(node.lastHeardSecondsAgo) + " ago"])
        }
        return "Neighbours (\(report.neighbours.count)):\n" + (report.neighbours.isEmpty ? "  none\n" : neighbours.rendered())
            + "\nRemote nodes (\(report.remote.count)):\n" + (report.remote.isEmpty ? "  none\n" : remote.rendered())
    }

    /// One line per recipient with mail held: short ID, messages, bytes, age of the oldest.
    public func mailbox(_ report: MailboxReport) -> String {
        let waiting = report.waitingMessages.map(waitingMessages)
        guard report.enabled else {
            return "The mailbox is off ([mailbox] enabled = false, or its database could not be opened).\n" + (waiting ?? "")
        }
        var table = TextTable(headers: ["RECIPIENT", "MESSAGES", "BYTES", "OLDEST"], alignments: [.left, .right, .right, .right])
        for recipient in report.recipients {
            table.append([recipient.shortID, String(recipient.count), Self.bytes(UInt64(recipient.bytes)),
                          Self.duration(recipient.oldestAgeSeconds) + " ago"])
        }
        let total = report.recipients.reduce(0) { $0 + $1.count }
        return "Held for \(report.recipients.count) recipient(s), \(total) message(s); database \(Self.bytes(UInt64(report.databaseBytes))):\n"
            + (report.recipients.isEmpty ? "  none\n" : table.rendered()) + (waiting ?? waitingForKey(report.waitingForKey ?? []))
    }

    /// This node's own messages waiting for keys, one line per message (daemons that list them).
    private func waitingMessages(_ messages: [MailboxReport.WaitingMessage]) -> String {
        var table = TextTable(headers: ["MESSAGE", "TO", "TEXT", "AGE", "KEPT"], alignments: [.left, .left, .right, .right, .left])
        for message in messages {
            table.append([String(message.messageID.prefix(8)), message.shortID, Self.bytes(UInt64(message.bytes)),
                          Self.duration(message.ageSeconds), message.stored ? "database" : "memory (this lookup)"])
        }
        let footer = messages.isEmpty ? "" : "relayctl mailbox drop MESSAGE cancels one.\n"
        return "\nWaiting for a key, \(messages.count) message(s) of this node's own:\n"
            + (messages.isEmpty ? "  none\n" : table.rendered()) + footer
    }

    /// This node's own messages waiting for keys, per recipient (daemons without per-message lines).
    private func waitingForKey(_ recipients: [MailboxReport.Recipient]) -> String {
        var table = TextTable(headers: ["RECIPIENT", "MESSAGES", "TEXT", "OLDEST"], alignments: [.left, .right, .right, .right])
        for recipient in recipients {
            table.append([recipient.shortID, String(recipient.count), Self.bytes(UInt64(recipient.bytes)),
                          Self.duration(recipient.oldestAgeSeconds) + " ago"])
        }
        let total = recipients.reduce(0) { $0 + $1.count }
        return "\nWaiting for the key of \(recipients.count) recipient(s), \(total) message(s) of this node's own:\n"
            + (recipients.isEmpty ? "  none\n" : table.rendered())
    }

    /// Uptime and memory, then every counter.
    public func stats(_ report: StatsReport) -> String {
        var table = TextTable(headers: ["GROUP", "COUNTER", "VALUE"], alignments: [.left, .left, .right])
        for group in report.counters.keys.sorted() {
            for (name, value) in (report.counters[group] ?? [:]).sorted(by: { $0.key < $1.key }) {
                table.append([group, name, String(value)])
            }
        }
        return "uptime \(Self.duration(report.uptimeSeconds)), memory \(Self.bytes(report.memory.residentBytes))"
            + " resident (peak \(Self.bytes(report.memory.peakResidentBytes)))\n\n" + table.rendered()
    }

    /// The status as aligned `key  value` lines.
    public func status(_ report: StatusReport) -> String {
        keyValues([
            ("node", "\(report.shortID) (\(report.nodeID))"), ("name", report.name),
            ("transport", report.transportState.map { "\(report.transport): \($0)" } ?? report.transport),
            ("state", report.state), ("uptime", Self.duration(report.uptimeSeconds)),
            ("neighbours", String(report.neighbourCount)), ("known nodes", String(report.knownNodeCount)),
            ("version", report.version),
        ] + (report.clock.map { [("clock", Self.clock($0))] } ?? []) + (report.bridge.map { [("mqtt", Self.bridge($0))] } ?? []))
    }

    /// `connected to host:port`, `reconnecting to host:port in 4 s (last error: …)`, with what waits.
    static func bridge(_ report: BridgeReport) -> String {
        var text: String
        switch report.state {
        case "connected": text = "connected to \(report.broker)"
        case "reconnecting":
            text = "reconnecting to \(report.broker) in \(Int((report.retryInSeconds ?? 0).rounded(.up))) s"
        default: text = "\(report.state) \(report.broker)"
        }
        if report.queued > 0 { text += ", \(report.queued) queued" }
        if let error = report.lastError, report.state != "connected" { text += " (last error: \(error))" }
        return text
    }

    /// The identity as aligned `key  value` lines.
    public func identity(_ report: IdentityReport) -> String {
        keyValues([
            ("node ID", report.nodeID), ("short ID", report.shortID), ("fingerprint", report.fingerprint),
            ("signing key", report.signingKey), ("agreement key", report.agreementKey),
        ])
    }

    /// One line per event, such as `12:00:01 message 0a1b2c3d → everyone (2 hops): hello`.
    public func event(_ event: WatchEvent) -> String {
        let line: String
        switch event {
        case .message(_, let from, let to, let hops, let text, _):
            line = "message \(from.shortID) → \(to?.shortID ?? "everyone") (\(hops) hops): \(text)"
        case .neighbourJoined(let node, let name, _):
            line = "peer \(node.shortID) \(name ?? "") joined"
        case .neighbourLeft(let node, let name, let reason, _):
            line = "peer \(node.shortID) \(name ?? "") left" + (reason.map { " (\($0))" } ?? "")
        case .linkUp(let link, let role, let address, _):
            line = "link #\(link) up: \(role) \(address)"
        case .linkDown(let link, let reason, _):
            line = "link #\(link) down: \(reason)"
        case .unknown(let type, _):
            line = type
        }
        return "\(clock(event.time)) \(PlainText.sanitized(line, maxBytes: .max))\n"
    }

    func keyValues(_ pairs: [(String, String)]) -> String {
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { key, value in
            key + String(repeating: " ", count: width - key.count) + "  " + PlainText.sanitized(value, maxBytes: .max)
        }.joined(separator: "\n") + "\n"
    }
}
