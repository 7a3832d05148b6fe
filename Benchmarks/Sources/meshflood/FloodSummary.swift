/// The end-of-run report: one JSON object (`--json`) or a few lines for people.
struct FloodSummary {
    let options: FloodOptions
    let nodeID: String
    let readyAfterSeconds: Double
    let flood: FloodTally
    let link: LinkTally
    let transportFramesSent: UInt64

    /// Messages per second actually sent.
    var rate: Double { flood.seconds > 0 ? Double(flood.messages) / flood.seconds : 0 }

    /// The summary as one JSON object on one line.
    var json: String {
        var fields: [(String, String)] = [
            ("mode", quoted(options.mode.rawValue)),
            ("node_id", quoted(nodeID)),
            ("target", quoted(options.target.description)),
            ("target_rate", number(options.rate)),
            ("duration_s", number(options.duration)),
            ("ready_after_s", number(readyAfterSeconds)),
            ("elapsed_s", number(flood.seconds)),
            ("messages_sent", "\(flood.messages)"),
            ("rate", number(rate)),
            ("frames_sent", "\(flood.frames)"),
            ("frames_per_s", number(flood.seconds > 0 ? Double(flood.frames) / flood.seconds : 0)),
            ("envelope_bytes_sent", "\(flood.envelopeBytes)"),
            ("failed", "\(flood.failed)"),
            ("record_failures", "\(flood.recordFailures)"),
            ("identities_minted", "\(flood.identitiesMinted)"),
            ("heartbeats", "\(flood.heartbeats)"),
            ("waits_for_link", "\(flood.waitsForLink)"),
            ("transport_frames_sent", "\(transportFramesSent)"),
            ("links_up", "\(link.linksUp)"),
            ("links_down", "\(link.linksDown)"),
            ("rekeys", "\(link.rekeys)"),
            ("envelopes_received", "\(link.envelopesReceived)"),
            ("broadcasts_heard", "\(link.broadcastsHeard)"),
            ("frames_not_sent", "\(link.framesNotSent)"),
            ("seed", "\(options.seed)"),
        ]
        if options.mode == .replay {
            fields += [
                ("replay_copies", "\(flood.replayCopies)"),
                ("turnover_messages", "\(flood.turnoverMessages)"),
                ("replayed_message_id", flood.replayedMessageID.map(quoted) ?? "null"),
                ("replayed_age_s", flood.replayedAgeSeconds.map(number) ?? "null"),
            ]
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A few lines for people.
    var text: String {
        var lines = [
            "meshflood \(options.mode.rawValue) → \(options.target) as \(nodeID.prefix(8)) (ready after \(number(readyAfterSeconds)) s)",
            "  sent \(flood.messages) messages (\(flood.frames) frames, \(flood.envelopeBytes) envelope bytes) in \(number(flood.seconds)) s: \(number(rate))/s",
            "  failed \(flood.failed), identities minted \(flood.identitiesMinted), heartbeats \(flood.heartbeats), link drops \(link.linksDown)",
        ]
        if options.mode == .replay {
            lines.append(
                "  replay: \(flood.replayCopies) edited copies, \(flood.turnoverMessages) turnover directs, old one "
                    + (flood.replayedMessageID.map { "\($0) (\(number(flood.replayedAgeSeconds ?? 0)) s old)" } ?? "not replayed (none heard)"))
        }
        return lines.joined(separator: "\n")
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case _ where scalar.value < 0x20: "?"
            default: String(scalar)
            }
        }.joined() + "\""
    }

    private func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return String(Double(Int64(value * 1000)) / 1000)
    }
}
