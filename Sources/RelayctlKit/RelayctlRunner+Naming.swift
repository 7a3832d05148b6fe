import ControlProtocol
import MeshProtocol

extension RelayctlRunner {
    /// What naming a node or message on the command line came to.
    enum Resolution: Equatable {
        /// The full ID, 32 lowercase hex digits.
        case resolved(String)
        /// It could not be resolved; the error is printed, exit with this code.
        case failed(RelayctlExitCode)
    }

    /// The full ID of the node `typed` names (`IDResolver`): a full ID as it is, otherwise matched
    /// against the neighbours and remote nodes `peers` reports.
    func resolveNode(_ typed: String, client: ControlClient) throws(ControlClientError) -> Resolution {
        if let full = IDResolver.fullID(typed) { return .resolved(full) }
        let reply = try client.request(ControlRequest(.peers), as: PeersReport.self)
        guard reply.ok, let peers = reply.result else { return .failed(refused(reply.error)) }
        return resolve(typed, with: IDResolver(peers: peers))
    }

    /// The full ID of the waiting message `typed` names: a full ID as it is, otherwise matched
    /// against the messages `mailbox` lists as waiting for a key.
    func resolveMessage(_ typed: String, client: ControlClient) throws(ControlClientError) -> Resolution {
        if let full = IDResolver.fullID(typed) { return .resolved(full) }
        let reply = try client.request(ControlRequest(.mailbox), as: MailboxReport.self)
        guard reply.ok, let mailbox = reply.result else { return .failed(refused(reply.error)) }
        let candidates = (mailbox.waitingMessages ?? []).map { IDResolver.Candidate(id: $0.messageID) }
        return resolve(typed, with: IDResolver(kind: "message", candidates: candidates))
    }

    private func resolve(_ typed: String, with resolver: IDResolver) -> Resolution {
        do throws(IDResolutionError) {
            return .resolved(try resolver.resolve(typed))
        } catch {
            err("relayctl: \(error)\n")
            return .failed(.usage)
        }
    }

    /// `cancel MESSAGE_ID` and `mailbox drop MESSAGE_ID`: asks meshnoded to cancel one of this
    /// node's messages waiting for a key.
    func cancel(_ typed: String, client: ControlClient, json: Bool) throws(ControlClientError) -> RelayctlExitCode {
        let id: String
        switch try resolveMessage(typed, client: client) {
        case .resolved(let full): id = full
        case .failed(let code): return code
        }
        let reply = try client.request(ControlRequest(.cancel, messageID: id), as: CancelReport.self)
        guard reply.ok, let cancelled = reply.result else { return refused(reply.error) }
        out(json ? String(decoding: ControlJSON.line(cancelled), as: UTF8.self)
            : "cancelled \(cancelled.messageID) to \(cancelled.nodeID.prefix(8)) (\(cancelled.bytes) bytes); it will not be sent\n")
        return .ok
    }
}
