import ControlProtocol
import Doctor
import Glibc

/// Renders control results as the text relayctl prints.
public struct ReportFormatter: Sendable {
    /// Formats an event time (seconds since the epoch) for `watch`.
    public var clock: @Sendable (Double) -> String
    /// Colours the health word and doctor's labels (a terminal without `NO_COLOR`).
    public var colour: Bool

    /// Creates a formatter; by default times print as local `HH:MM:SS`, without colour.
    public init(clock: @escaping @Sendable (Double) -> String = ReportFormatter.localTime, colour: Bool = false) {
        self.clock = clock
        self.colour = colour
    }

    /// Whether output to a terminal should be coloured: it is a terminal, `NO_COLOR` is unset or
    /// empty (no-color.org) and `TERM` is not `dumb`.
    public static func wantsColour(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// `text` in green (`ok`), yellow (`degraded`, `WARN`) or red (`down`, `FAIL`) when colouring.
    public func painted(_ text: String, _ word: String) -> String {
        guard colour else { return text }
        let code = switch word {
        case "ok", "OK": "32"
        case "degraded", "WARN": "33"
        case "down", "FAIL": "31"
        default: ""
        }
        return code.isEmpty ? text : "\u{1b}[\(code)m\(text)\u{1b}[0m"
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
        var neighbours = TextTable(headers: ["NODE", "NAME", "ROLE", "STATE", "LINKS", "MTU", "RSSI", "HEARD"],
                                   alignments: [.left, .left, .left, .left, .left, .right, .right, .right])
        for node in report.neighbours {
            let links = node.links.map { "\($0.transport.map { $0 + " " } ?? "")#\($0.linkID) \($0.role) \($0.address)" }.joined(separator: ", ")
            let mtu = node.links.map { String($0.mtu) }.joined(separator: ",")
            let rssi = node.links.compactMap { $0.rssi.map(String.init) }.joined(separator: ",")
            let name = [node.icon, node.name].compactMap { $0 }.joined(separator: " ")
            let state = node.state ?? (node.links.isEmpty ? "departing" : "linked")
            neighbours.append([node.shortID, name.isEmpty ? "?" : name, node.role ?? "?", state, links.isEmpty ? "-" : links,
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

    /// Uptime and memory, then the counters of `groups` (all when empty): without `all`, only those
    /// not zero, with a line saying how many were hidden. Byte counts are humanised; counters (not
    /// gauges) get their mean rate since start.
    public func stats(_ report: StatsReport, groups: [String] = [], all: Bool = false) -> String {
        var table = TextTable(headers: ["GROUP", "COUNTER", "VALUE", "RATE"], alignments: [.left, .left, .right, .right])
        var hidden = 0
        for group in report.counters.keys.sorted() where groups.isEmpty || groups.contains(group) {
            for (name, value) in (report.counters[group] ?? [:]).sorted(by: { $0.key < $1.key }) {
                if value == 0, !all {
                    hidden += 1
                    continue
                }
                let gauge = MetricName.isGauge(group: group, counter: name)
                let shown = name.hasSuffix("bytes") ? Self.bytes(value) : String(value)
                let rate = gauge || value == 0 ? "-" : Self.rate(Double(value), over: report.uptimeSeconds, bytes: name.hasSuffix("bytes"))
                table.append([group, name, shown, rate])
            }
        }
        let head = "uptime \(Self.duration(report.uptimeSeconds)), memory \(Self.bytes(report.memory.residentBytes))"
            + " resident (peak \(Self.bytes(report.memory.peakResidentBytes)))\n\n"
        let body = table.rows.isEmpty ? "  no counter above zero\n" : table.rendered()
        let tail = hidden == 0 ? "" : "\n\(hidden) counter\(hidden == 1 ? "" : "s") at zero not shown (relayctl stats --all shows them)\n"
        return head + body + tail
    }

    /// A mean rate: `3.2/s`, `12/min`, `4.0/h`, `< 1/h` (bytes as `1.5 KiB/s`).
    public static func rate(_ count: Double, over seconds: Double, bytes: Bool = false) -> String {
        guard seconds > 0, count > 0 else { return "" }
        let perSecond = count / seconds
        if bytes { return Self.bytes(UInt64(perSecond.rounded())) + "/s" }
        let units: [(Double, String)] = [(1, "s"), (60, "min"), (3600, "h")]
        for (scale, unit) in units where perSecond * scale >= 1 {
            let value = perSecond * scale
            let tenths = Int((value * 10).rounded())
            return (value >= 10 ? String(Int(value.rounded())) : "\(tenths / 10).\(tenths % 10)") + "/" + unit
        }
        return "< 1/h"
    }

    /// The status as aligned `key  value` lines, led by the health word and its reasons.
    public func status(_ report: StatusReport) -> String {
        // Built in steps: Swift 6.0's type checker gives up on the one-expression form.
        let transport: String = report.transportState.map { "\(report.transport): \($0)" } ?? report.transport
        var pairs: [(String, String)] = []
        if let health = report.health {
            let reasons = (report.healthReasons ?? []).joined(separator: "; ")
            pairs.append(("health", health + (reasons.isEmpty ? "" : ": " + reasons)))
        }
        pairs += [
            ("node", "\(report.shortID) (\(report.nodeID))"), ("name", report.name),
            ("transport", transport),
            ("state", report.state), ("uptime", Self.duration(report.uptimeSeconds)),
            ("neighbours", String(report.neighbourCount)), ("known nodes", String(report.knownNodeCount)),
            ("version", report.version),
        ]
        if report.health != nil { pairs.append(("config", report.configFile ?? "none (defaults and flags)")) }
        if let pending = report.restartNeededFor, !pending.isEmpty {
            pairs.append(("reload", "restart needed for: " + pending.joined(separator: ", ")))
        }
        if let refused = report.reloadError { pairs.append(("reload", "last reload refused: " + refused)) }
        if let clock = report.clock { pairs.append(("clock", Self.clock(clock))) }
        if let bridge = report.bridge { pairs.append(("mqtt", Self.bridge(bridge))) }
        var text = keyValues(pairs)
        if let health = report.health, colour, text.hasPrefix("health") {
            let width = pairs.map(\.0.count).max() ?? 0
            let start = text.index(text.startIndex, offsetBy: width + 2)
            let end = text.index(start, offsetBy: health.count)
            text.replaceSubrange(start..<end, with: painted(health, health))
        }
        return text
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

    /// One line per event, such as `12:00:01 message 0a1b2c3d Kitchen → everyone (2 hops): hello`;
    /// `view` supplies what the node knows (names, this node, links) and learns from the event.
    public func event(_ event: WatchEvent, view: inout WatchView) -> String {
        let line: String
        switch event {
        case .message(_, let from, let to, let hops, let text, _):
            let target = to.map { $0 == view.me ? "me" : view.label($0) } ?? "everyone"
            line = "message \(view.label(from)) → \(target) (\(hops) hop\(hops == 1 ? "" : "s")): \(text)"
        case .neighbourJoined(let node, let name, _):
            if let name { view.names[node] = name }
            line = "peer \(view.label(node)) joined"
        case .neighbourLeft(let node, let name, let reason, _):
            if let name { view.names[node] = name }
            line = "peer \(view.label(node)) left" + (reason.map { " (\($0))" } ?? "")
        case .linkUp(let link, let role, let address, let transport, _):
            view.links[WatchView.LinkKey(transport: transport, link: link)] = WatchView.Link(address: address, node: nil)
            line = "link \(transport.map { $0 + " " } ?? "")#\(link) up: \(role) \(address)"
        case .linkDown(let link, let reason, let transport, _):
            let peer = view.links.removeValue(forKey: WatchView.LinkKey(transport: transport, link: link)).map { known in
                " (" + ([known.address] + (known.node.map { [view.label($0)] } ?? [])).joined(separator: ", ") + ")"
            } ?? ""
            line = "link \(transport.map { $0 + " " } ?? "")#\(link)\(peer) down: \(reason)"
        case .unknown(let type, _):
            line = type
        }
        return "\(clock(event.time)) \(PlainText.sanitized(line, maxBytes: .max))\n"
    }

    /// One line per event with no knowledge of names (short IDs only).
    public func event(_ event: WatchEvent) -> String {
        var view = WatchView()
        return self.event(event, view: &view)
    }

    /// The line `watch` starts with: which node is watched, and how to stop.
    public func watchHeader(_ status: StatusReport) -> String {
        let neighbours = "\(status.neighbourCount) neighbour\(status.neighbourCount == 1 ? "" : "s")"
        let line = "watching \(status.shortID) \(status.name) (\(neighbours), \(status.knownNodeCount) known further away); Ctrl-C to stop"
        return PlainText.sanitized(line, maxBytes: .max) + "\n"
    }

    func keyValues(_ pairs: [(String, String)]) -> String {
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { key, value in
            key + String(repeating: " ", count: width - key.count) + "  " + PlainText.sanitized(value, maxBytes: .max)
        }.joined(separator: "\n") + "\n"
    }
}
