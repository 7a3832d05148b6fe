import ControlProtocol
import Glibc

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
            report = try awaitKey(node, first: report, client: client)
        }
        out(json ? String(decoding: ControlJSON.line(report), as: UTF8.self) : formatter.lookup(report))
        guard report.known else {
            err("relayctl: no answer to the key lookup for \(report.shortID) within \(Self.whole(report.timeoutSeconds)) s\n")
            return .refused
        }
        return .ok
    }

    /// `send --to NODE` for a node whose key meshnoded lacked: waits for the lookup; the message
    /// went out when the key came.
    func awaitSend(_ sent: SendReport, to node: String, client: ControlClient, json: Bool) throws(ControlClientError) -> RelayctlExitCode {
        let reply = try client.request(ControlRequest(.lookup, to: node, start: false), as: LookupReport.self)
        guard reply.ok, let first = reply.result else { return refused(reply.error) }
        if !json {
            err("relayctl: \(first.shortID)'s key is not known; looking it up, the message goes out when it is found "
                + "(up to \(Self.whole(first.timeoutSeconds)) s)\n")
        }
        let report = try awaitKey(node, first: first, client: client)
        if !report.known, sent.heldForKey == true {
            if !json {
                err("relayctl: waiting for the key of \(report.shortID), held; the message goes out when the key is known "
                    + "(looked up again on a schedule, kept at most the mailbox retention; relayctl mailbox)\n")
            }
            out(json ? String(decoding: ControlJSON.line(sent), as: UTF8.self) : sent.messageID + "\n")
            return .ok
        }
        guard report.known else {
            err("relayctl: no answer to the key lookup for \(report.shortID) within \(Self.whole(report.timeoutSeconds)) s: "
                + "the message was not sent\n")
            return .refused
        }
        if !json { err("relayctl: key found (\(report.hops.map { "\($0) hops" } ?? "distance unknown")); message sent\n") }
        out(json ? String(decoding: ControlJSON.line(sent), as: UTF8.self) : sent.messageID + "\n")
        return .ok
    }

    /// Asks again, without starting another lookup, until the key is known, the lookup ended, or
    /// its timeout and a grace have passed.
    private func awaitKey(_ node: String, first: LookupReport, client: ControlClient) throws(ControlClientError) -> LookupReport {
        var report = first
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(first.timeoutSeconds * 1000)) + Self.lookupGrace
        while !report.known, report.lookingUp, clock.now < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: Int(Self.lookupPollInterval.components.attoseconds / 1_000_000_000))
            _ = nanosleep(&pause, nil)
            let reply = try client.request(ControlRequest(.lookup, to: node, start: false), as: LookupReport.self)
            guard reply.ok, let next = reply.result else { break }
            report = next
        }
        return report
    }

    private static func whole(_ seconds: Double) -> Int { Int(seconds.rounded()) }
}
