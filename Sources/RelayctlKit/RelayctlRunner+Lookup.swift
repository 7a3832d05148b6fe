import ControlProtocol

extension RelayctlRunner {
    /// How often relayctl asks meshnoded whether a key lookup has an answer.
    static let lookupPollInterval: Duration = .milliseconds(250)
    /// Time allowed beyond the lookup's own timeout (meshnoded's answer takes a turn).
    static let lookupGrace: Duration = .seconds(2)

    /// `lookup NODE`: shows what is known; when the key is not, waits for the lookup meshnoded
    /// started (at most its timeout) and shows what it brought.
    func lookup(_ node: String, client: ControlClient, json: Bool) throws(ControlClientError) -> RelayctlExitCode {
        let reply = try client.request(ControlRequest(.lookup, to: node), as: LookupReport.self)
        guard reply.ok, var report = reply.result else { return refused(reply.error) }
        if !report.known {
            if !json { err("relayctl: \(report.shortID)'s key is not known; asking the mesh (up to \(Self.whole(report.timeoutSeconds)) s)\n") }
            let (last, interrupted) = try awaitKey(node, first: report, client: client)
            report = last
            if interrupted {
                err("relayctl: interrupted; the lookup goes on in meshnoded (relayctl lookup \(report.shortID) shows it)\n")
                return .interrupted
            }
        }
        out(json ? String(decoding: ControlJSON.line(report), as: UTF8.self) : formatter.lookup(report))
        guard report.known else {
            err("relayctl: no answer to the key lookup for \(report.shortID) within \(Self.whole(report.timeoutSeconds)) s\n")
            return .refused
        }
        return .ok
    }

    /// `send --to NODE` for a node whose key meshnoded lacked: prints the message ID at once, then
    /// waits for the lookup (the message goes out when the key comes). Ctrl-C cancels the message;
    /// `detach` returns at once and leaves it waiting.
    func awaitSend(
        _ sent: SendReport, to node: String, detach: Bool, client: ControlClient, json: Bool
    ) throws(ControlClientError) -> RelayctlExitCode {
        let short = String(node.prefix(8))
        let keptWhere = sent.heldForKey == true
            ? "kept in the mailbox database until the key is known (at most the mailbox retention)"
            : "kept in memory for the key lookup"
        if !json { out(sent.messageID + "\n") }
        if detach {
            if !json { err("relayctl: \(short)'s key is not known; the message waits for it, \(keptWhere); relayctl cancel \(sent.messageID.prefix(8)) cancels it\n") }
            if json { out(String(decoding: ControlJSON.line(sent), as: UTF8.self)) }
            return .ok
        }
        let reply = try client.request(ControlRequest(.lookup, to: node, start: false), as: LookupReport.self)
        guard reply.ok, let first = reply.result else { return refused(reply.error) }
        if !json {
            err("relayctl: \(first.shortID)'s key is not known; looking it up, the message goes out when it is found "
                + "(up to \(Self.whole(first.timeoutSeconds)) s; Ctrl-C cancels it)\n")
        }
        let (report, interrupted) = try awaitKey(node, first: first, client: client)
        if interrupted, !report.known { return try cancelInterrupted(sent, client: client) }
        if !report.known, sent.heldForKey == true {
            if !json {
                err("relayctl: waiting for the key of \(report.shortID), held; the message goes out when the key is known "
                    + "(looked up again on a schedule, kept at most the mailbox retention; relayctl mailbox lists it, "
                    + "relayctl cancel \(sent.messageID.prefix(8)) cancels it)\n")
            }
            if json { out(String(decoding: ControlJSON.line(sent), as: UTF8.self)) }
            return .ok
        }
        guard report.known else {
            err("relayctl: no answer to the key lookup for \(report.shortID) within \(Self.whole(report.timeoutSeconds)) s: "
                + "the message \(sent.messageID.prefix(8)) was not sent\n")
            return .refused
        }
        if !json { err("relayctl: key found (\(report.hops.map { "\($0) hop\($0 == 1 ? "" : "s")" } ?? "distance unknown")); message sent\n") }
        if json { out(String(decoding: ControlJSON.line(sent), as: UTF8.self)) }
        return .ok
    }

    /// Ctrl-C while a message waited for its key: asks meshnoded to cancel it.
    private func cancelInterrupted(_ sent: SendReport, client: ControlClient) throws(ControlClientError) -> RelayctlExitCode {
        let reply = try client.request(ControlRequest(.cancel, messageID: sent.messageID), as: CancelReport.self)
        if reply.ok {
            err("relayctl: interrupted; message \(sent.messageID.prefix(8)) cancelled, it will not be sent\n")
        } else if reply.error?.code == ControlErrorCode.unknownMessage.rawValue {
            err("relayctl: interrupted, but message \(sent.messageID.prefix(8)) had already gone out\n")
        } else {
            _ = refused(reply.error)
            err("relayctl: interrupted; message \(sent.messageID.prefix(8)) could not be cancelled and still waits "
                + "(relayctl cancel \(sent.messageID.prefix(8)))\n")
        }
        return .interrupted
    }

    /// Asks again, without starting another lookup, until the key is known, the lookup ended, its
    /// timeout and a grace have passed, or the operator interrupted (the second value).
    private func awaitKey(_ node: String, first: LookupReport, client: ControlClient) throws(ControlClientError) -> (LookupReport, Bool) {
        var report = first
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(first.timeoutSeconds * 1000)) + Self.lookupGrace
        if pause(.zero) { return (report, true) }
        while !report.known, report.lookingUp, clock.now < deadline {
            if pause(Self.lookupPollInterval) { return (report, true) }
            let reply = try client.request(ControlRequest(.lookup, to: node, start: false), as: LookupReport.self)
            guard reply.ok, let next = reply.result else { break }
            report = next
        }
        return (report, false)
    }

    private static func whole(_ seconds: Double) -> Int { Int(seconds.rounded()) }
}
