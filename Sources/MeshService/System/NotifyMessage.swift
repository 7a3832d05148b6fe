/// One `KEY=value` assignment of the sd_notify protocol.
public enum NotifyMessage: Equatable, Sendable {
    /// `READY=1`: start-up is complete.
    case ready
    /// `STATUS=…`: a one-line status shown by `systemctl status`.
    case status(String)
    /// `WATCHDOG=1`: the service is alive.
    case watchdog
    /// `STOPPING=1`: shutdown has begun.
    case stopping
    /// `RELOADING=1`: a reload has begun (send `.ready` when done).
    case reloading
    /// `MONOTONIC_USEC=…`: the CLOCK_MONOTONIC time of a reload, as systemd wants with RELOADING=1.
    case monotonicMicroseconds(UInt64)

    /// The assignment line; status text is cut at 512 bytes and control characters become spaces.
    public var line: String {
        switch self {
        case .ready: "READY=1"
        case .status(let text): "STATUS=" + String(decoding: Array(LogFormat.sanitized(text).utf8.prefix(512)), as: UTF8.self)
        case .watchdog: "WATCHDOG=1"
        case .stopping: "STOPPING=1"
        case .reloading: "RELOADING=1"
        case .monotonicMicroseconds(let value): "MONOTONIC_USEC=\(value)"
        }
    }

    /// The datagram sd_notify sends for several messages: lines joined by newlines.
    public static func payload(_ messages: [NotifyMessage]) -> String {
        messages.map(\.line).joined(separator: "\n")
    }
}
