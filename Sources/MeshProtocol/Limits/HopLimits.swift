/// How far each kind of message may travel, in hops (the per-kind TTL table).
///
/// A limit of `n ≥ 1` lets a message travel at most `n` hops from its origin: it is relayed
/// while the next hop would still be within the limit. A limit of 0 means link-local: the
/// message reaches direct neighbours only and is never relayed. Defaults follow the
/// RelayChat design: message 3, join notice 2, heartbeat, key exchange and profile 0; key
/// request and key answer 7 (docs/PROTOCOL.md Part H).
public struct HopLimits: Equatable, Sendable {
    /// The limit for each kind.
    public var limits: [MessageKind: UInt8]

    /// The RelayChat defaults.
    public static let relayChatDefaults = HopLimits(limits: [
        .message: 3, .joinNotice: 2, .heartbeat: 0, .keyExchange: 0, .profile: 0, .keyRequest: 7, .keyAnswer: 7,
    ])

    /// Creates a table; kinds not named are link-local.
    public init(limits: [MessageKind: UInt8]) { self.limits = limits }

    /// The configured limit for `kind` (0 when not configured).
    public func limit(for kind: MessageKind) -> UInt8 { limits[kind] ?? 0 }

    /// True when a message of `kind` may be relayed at all.
    public func isRelayable(_ kind: MessageKind) -> Bool {
        kind != .keyExchange && kind != .profile && kind != .heartbeat && limit(for: kind) > 1
    }

    /// True when a received message with `hops` relays behind it is still within its limit.
    public func accepts(_ kind: MessageKind, hops: UInt8) -> Bool {
        hops < max(limit(for: kind), 1)
    }

    /// True when a message received with `hops` may travel one hop further.
    public func allowsRelay(_ kind: MessageKind, receivedHops hops: UInt8) -> Bool {
        isRelayable(kind) && Int(hops) + 1 < Int(limit(for: kind))
    }
}
