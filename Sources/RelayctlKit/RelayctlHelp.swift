import ControlProtocol

/// relayctl's help texts.
public enum RelayctlHelp {
    /// The one-line usage of a command.
    public static func usage(_ command: String?) -> String {
        let prefix = "usage: relayctl [--json] [--socket PATH] "
        return switch command.flatMap(ControlCommand.init(rawValue:)) {
        case .send?: prefix + "send [--to NODE [--detach]] TEXT..."
        case .stats?: prefix + "stats [--openmetrics | --prometheus]"
        case let known?: prefix + ([known.rawValue, known.arguments].filter { !$0.isEmpty }.joined(separator: " "))
        case nil: prefix + "COMMAND [ARGS]   (relayctl --help for more)"
        }
    }

    /// The full help of a command, or the general help for nil.
    public static func text(_ command: String?) -> String {
        let common = """

        Options (every command):
          --json          print the reply's result as JSON instead of a table
          --socket PATH   control socket (default: $RELAYCTL_SOCKET or \(RelayctlInvocation.defaultSocket))
          -h, --help      show help

        A NODE is its full ID (32 hex digits), a prefix of 4 or more hex digits that only one
        known node has, or its name (relayctl peers lists them); a MESSAGE_ID likewise its ID or
        a prefix of it (relayctl mailbox lists the waiting ones).

        Exit codes: 0 ok, 64 usage, 65 meshnoded refused the request, 69 cannot connect,
        74 socket I/O error or timeout, 76 malformed reply, 130 interrupted (Ctrl-C);
        doctor: 75 a warning, 78 a failure.
        """
        let body: String
        switch command.flatMap(ControlCommand.init(rawValue:)) {
        case .send?:
            body = """
            Sends a chat message. Without --to it is broadcast to the whole mesh; with --to it is
            a direct message to one node: its full ID, a prefix of 4 or more hex digits, or its
            name, as `relayctl peers` shows them. All remaining words form the text (use -- before
            text that starts with '-'): UTF-8, not empty, at most 4,096 bytes. Prints the message ID.

              -t, --to NODE   send a direct message to NODE instead of broadcasting
              -d, --detach    with --to: do not wait for a key lookup; print the ID and exit 0

            When meshnoded does not know the node's key, it looks the key up across the mesh and
            sends the message when an answer brings it; relayctl prints the message ID at once and
            waits for that (at most meshnoded's [lookup] timeout, 10 s by default). Ctrl-C while
            it waits cancels the message (exit 130). If no answer came, a node with a mailbox keeps
            the message in its database and sends it whenever the key becomes known, within the
            mailbox retention (24 h by default): relayctl exits 0 saying "waiting for the key of
            ..., held" (relayctl mailbox lists them, relayctl cancel MESSAGE_ID drops one).
            Without a mailbox it exits 65: the message was not sent.
            """
        case .lookup?:
            body = """
            Shows what this node knows of NODE (its ID, a prefix of 4 or more hex digits, or its
            name; a node not in relayctl peers needs its full 32-hex-digit ID): short ID, name, distance in hops
            and when it was last heard. When its key is not known, meshnoded asks the mesh for it
            (a key request, docs/PROTOCOL.md Part H) and relayctl waits for the answer, at most the
            [lookup] timeout; exits 65 if none came.
            """
        case .peers?:
            body = "Lists direct neighbours with their links (role, address, MTU, RSSI) and the nodes\nknown further away with their hop counts."
        case .stats?:
            body = """
            Shows uptime, memory (resident and peak) and every counter, by group.

              --openmetrics   print them as OpenMetrics text (HELP, TYPE, samples, # EOF)
              --prometheus    print them in the Prometheus text format node_exporter's textfile
                              collector reads (meshnoded-metrics.timer writes this)

            Metric names: meshnode_GROUP_COUNTER_total for counters, meshnode_GROUP_COUNTER for
            gauges; the per-kind groups share meshnode_message_COUNTER_total{kind="KIND"}.
            """
        case .watch?:
            body = "Streams events (messages, peers joining and leaving, links up and down) until\ninterrupted or until meshnoded closes the connection."
        case .status?:
            body = "Shows node ID, name, transport, state, uptime, neighbour and known-node counts, version."
        case .id?:
            body = "Shows this node's ID, short ID, fingerprint and public keys."
        case .mailbox?:
            body = """
            Lists the mail this node holds for nodes not in range, one line per recipient: its
            short ID, messages, envelope bytes and the age of the oldest. Never content: the
            messages are sealed for their recipients. See meshnoded.conf(5), [mailbox].
            Then this node's own messages waiting for a recipient's key, one line per message:
            its ID, the recipient, text bytes, age, and whether it is kept in the database.

              drop MESSAGE_ID   cancel one of those (also `mailbox cancel`, or `relayctl cancel`):
                                it is never sent and its text is removed from the database
            """
        case .cancel?:
            body = """
            Cancels one of this node's own messages waiting for a recipient's key (relayctl mailbox
            lists them): it is never sent, and its text is removed from memory and from the mailbox
            database. MESSAGE_ID is the ID send printed, or a prefix of 4 or more hex digits.
            Exits 65 when no such message waits (it went out, expired, or was cancelled).
            """
        case .doctor?:
            body = """
            Checks this machine's set-up, one line per check, each OK, SKIP, WARN or FAIL with what
            to do: bluetoothd and its version, the adapter (present, powered, both LE roles,
            advertising instances), the D-Bus policy, the service user and the control group, the
            state directory and identity file (owner, mode), the clock (kernel synchronised,
            plausible year; the daemon's mesh clock when its status has one), free space, the
            systemd unit, and whether meshnoded answers on its control socket. Works without a
            running daemon; run it as root to see every file. Each D-Bus reply is waited for at
            most 2 s. Exit code by the worst line: 0 OK or SKIP, 75 WARN, 78 FAIL.

              --config PATH   meshnoded's configuration file, for the adapter, state directory,
                              control socket and group (default /etc/meshnoded/meshnoded.conf,
                              defaults when it does not exist)
            """
        case nil:
            body = "Controls a running meshnoded through its control socket.\n\nCommands:\n" + commandList
        }
        return usage(command) + "\n\n" + body + "\n" + common + "\n"
    }

    /// The general help's command list, one line per `ControlCommand`: name, arguments, summary.
    static var commandList: String {
        ControlCommand.allCases.map { command in
            let call = [command.rawValue, command.arguments].filter { !$0.isEmpty }.joined(separator: " ")
            return "  " + call + String(repeating: " ", count: max(1, 27 - call.count)) + command.summary
        }.joined(separator: "\n")
    }
}
