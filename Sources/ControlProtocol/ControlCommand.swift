/// The commands of relayctl and of the control socket: the one list meshnoded's dispatch,
/// relayctl's parser and help are derived from, and the bash completion and relayctl(1) are
/// checked against (ControlCommandTests).
///
/// The order is the one meshnoded's `unknown_command` reply lists the served commands in.
public enum ControlCommand: String, CaseIterable, Sendable {
    /// Send a chat message.
    case send
    /// List neighbours and remote nodes.
    case peers
    /// Counters and memory.
    case stats
    /// A one-screen summary.
    case status
    /// This node's identity.
    case id
    /// Stream events.
    case watch
    /// Show what is known of one node, looking its key up when it is not known.
    case lookup
    /// Mail held for recipients not in range.
    case mailbox
    /// Cancel one of this node's own messages that waits for a key.
    case cancel
    /// Check the machine's set-up; relayctl runs it alone, meshnoded does not serve it.
    case doctor

    /// True when meshnoded answers it on the control socket (docs/CONTROL.md).
    public var isServed: Bool { self != .doctor }

    /// The commands meshnoded answers, in the order its `unknown_command` reply names them.
    public static var served: [ControlCommand] { allCases.filter(\.isServed) }

    /// The arguments after the name in relayctl's command list, e.g. `[--to NODE_ID] TEXT`.
    public var arguments: String {
        switch self {
        case .send: "[--to NODE] [--detach] TEXT"
        case .lookup: "NODE"
        case .cancel: "MESSAGE_ID"
        case .mailbox: "[drop MESSAGE_ID]"
        case .stats: "[--openmetrics]"
        case .doctor: "[--config PATH]"
        case .peers, .status, .id, .watch: ""
        }
    }

    /// The one-line summary relayctl's command list shows.
    public var summary: String {
        switch self {
        case .send: "send a broadcast or direct chat message (a direct one waits for a key lookup when needed)"
        case .lookup: "show what is known of a node, looking its key up across the mesh when needed"
        case .peers: "list neighbours and remote nodes"
        case .stats: "show counters and memory use (or as metrics)"
        case .status: "show a summary"
        case .id: "show this node's identity"
        case .mailbox: "list mail held for nodes not in range (never content) and messages waiting for a key"
        case .cancel: "cancel a message of this node that waits for a key (same as mailbox drop)"
        case .watch: "stream events"
        case .doctor: "check this machine's set-up (works without meshnoded)"
        }
    }
}
