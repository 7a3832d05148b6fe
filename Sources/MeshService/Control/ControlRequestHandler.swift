import ControlProtocol
import MeshProtocol

/// Turns one request line into one reply line by asking the node; no I/O.
struct ControlRequestHandler: Sendable {
    /// What one line produced.
    struct Outcome: Sendable {
        /// The reply line, newline included.
        var reply: [UInt8]
        /// True when the request was a successful `watch`.
        var startsWatch: Bool
        /// The error code, when the reply is an error.
        var failure: ControlErrorCode?
    }

    /// The node to ask.
    let node: any NodeControlling

    /// The message of the `unknown_command` reply, naming the served commands.
    static let unknownCommandMessage = "unknown command; expected one of "
        + ControlCommand.served.map(\.rawValue).joined(separator: ", ")

    /// Handles one complete request line (without its newline).
    func handle(_ line: [UInt8]) -> Outcome {
        let request: ControlRequest
        do {
            request = try ControlJSON.decode(ControlRequest.self, from: line)
        } catch {
            let id = (try? ControlJSON.decode(IDOnly.self, from: line))?.id
            return failure(id, .badRequest, "request must be a JSON object with a string 'command'"
                           + " (and, for send, a string 'text' and a string or null 'to'; for lookup, a string 'to';"
                           + " for cancel, a string 'messageID')")
        }
        switch ControlCommand(rawValue: request.command) {
        case .send?: return send(request)
        case .lookup?: return lookup(request)
        case .peers?: return success(request.id, node.peers())
        case .stats?: return success(request.id, node.stats())
        case .status?: return success(request.id, node.status())
        case .id?: return success(request.id, node.identity())
        case .mailbox?: return success(request.id, node.mailbox())
        case .cancel?: return cancel(request)
        case .watch?:
            var outcome = success(request.id, WatchReport())
            outcome.startsWatch = true
            return outcome
        case .doctor?, nil:
            return failure(request.id, .unknownCommand, Self.unknownCommandMessage)
        }
    }

    private func send(_ request: ControlRequest) -> Outcome {
        guard let text = request.text, !text.isEmpty else {
            return failure(request.id, .badRequest, "send needs a non-empty 'text'")
        }
        var destination: NodeID?
        if let to = request.to {
            guard let node = NodeID(hex: to) else {
                return failure(request.id, .badRequest, "'to' must be a 32-hex-digit node ID or null")
            }
            destination = node
        }
        do throws(ControlFailure) {
            let sent = try node.send(text: text, to: destination)
            return success(request.id, SendReport(
                messageID: sent.messageID, sentTo: sent.sentTo, heldFor: sent.heldFor, waitingForKey: sent.waitingForKey,
                heldInMailbox: sent.offeredToMailbox, heldForKey: sent.heldForKey))
        } catch {
            return failure(request.id, error.code, error.description)
        }
    }

    private func lookup(_ request: ControlRequest) -> Outcome {
        guard let to = request.to, let target = NodeID(hex: to) else {
            return failure(request.id, .badRequest, "lookup needs 'to', a 32-hex-digit node ID")
        }
        do throws(ControlFailure) {
            return success(request.id, try node.lookup(target, start: request.start ?? true))
        } catch {
            return failure(request.id, error.code, error.description)
        }
    }

    private func cancel(_ request: ControlRequest) -> Outcome {
        guard let text = request.messageID, let messageID = MessageID(hex: text) else {
            return failure(request.id, .badRequest, "cancel needs 'messageID', a 32-hex-digit message ID")
        }
        do throws(ControlFailure) {
            return success(request.id, try node.cancel(messageID))
        } catch {
            return failure(request.id, error.code, error.description)
        }
    }

    private func success<Result: Codable & Sendable>(_ id: ControlRequestID?, _ result: Result) -> Outcome {
        Outcome(reply: ControlJSON.line(ControlReply(id: id, result: result)), startsWatch: false, failure: nil)
    }

    private func failure(_ id: ControlRequestID?, _ code: ControlErrorCode, _ message: String) -> Outcome {
        Outcome(reply: ControlJSON.errorLine(id: id, code: code, message: message), startsWatch: false, failure: code)
    }

    /// Just the `id`, to echo it in a bad-request reply.
    private struct IDOnly: Decodable {
        var id: ControlRequestID?
    }
}
