import MeshProtocol

/// A relayctl command with its own arguments.
public enum RelayctlCommand: Equatable, Sendable {
    /// Send a chat message; `to` nil broadcasts, otherwise the node as typed (full ID, a prefix
    /// of 4 or more hex digits, or a name; `IDResolver`). `detach`: do not wait for a key lookup.
    case send(text: String, to: String?, detach: Bool = false)
    /// Show what is known of a node (as typed, like `send`'s `to`), looking its key up when needed.
    case lookup(String)
    /// Cancel one of this node's messages waiting for a key (its ID or a prefix of it), `cancel`
    /// or `mailbox drop`.
    case cancel(String)
    /// List neighbours and remote nodes.
    case peers
    /// Show counters and memory.
    case stats
    /// Print counters and memory as Prometheus metrics (`stats --openmetrics` or `stats --prometheus`).
    case metrics(MetricsFormatter.Exposition)
    /// Stream events until interrupted.
    case watch
    /// Show a one-screen summary.
    case status
    /// Show this node's identity.
    case id
    /// List mail held for recipients not in range.
    case mailbox
    /// Check this machine's set-up; `config` is meshnoded's configuration file, `socket` a socket
    /// given by `--socket` or `RELAYCTL_SOCKET` (nil: the configuration's).
    case doctor(config: String?, socket: String?)
    /// Print help, for one command or in general.
    case help(String?)
}
