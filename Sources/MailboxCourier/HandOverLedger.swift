import MeshLink
import MeshProtocol

/// Held messages sent to their recipient on its own link and not yet removed (PROTOCOL.md Part G,
/// "Hand-over"). A transport that took a message's frames may still lose them with the link
/// (BlueZ posts them to its D-Bus thread, which drops what is queued when the device
/// disconnects), so a message leaves the mailbox only once its link has stayed up for
/// ``confirmAfter`` since it was sent; when that link goes first, the message is sent again on the
/// recipient's next link, and the recipient drops a copy it already has as seen (G4). A pure
/// value on injected mesh time.
public struct HandOverLedger: Sendable {
    /// How long a link must stay up after a hand-over before the message is removed, in milliseconds.
    public static let confirmAfter: UInt64 = 2_000

    private struct Attempt: Sendable {
        var recipient: NodeID
        var link: LinkID
        var sentAt: UInt64
    }

    private var attempts: [MessageID: Attempt] = [:]

    /// Creates an empty ledger.
    public init() {}

    /// Messages sent and waiting for their link to prove itself.
    public var count: Int { attempts.count }

    /// True while `id` was sent and waits for its link.
    public func isAwaiting(_ id: MessageID) -> Bool { attempts[id] != nil }

    /// Records that `id` went to `recipient` on `link` at `now`.
    public mutating func record(_ id: MessageID, recipient: NodeID, link: LinkID, now: UInt64) {
        attempts[id] = Attempt(recipient: recipient, link: link, sentAt: now)
    }

    /// Settles `recipient`'s hand-overs at `now`: returns those whose link is still up
    /// (`isUp`) `confirmAfter` after they were sent, oldest first, and forgets them, and forgets
    /// those whose link is gone (they go again on the next link).
    public mutating func settle(recipient: NodeID, now: UInt64, isUp: (LinkID) -> Bool) -> [MessageID] {
        var confirmed: [(MessageID, UInt64)] = []
        for (id, attempt) in attempts where attempt.recipient == recipient {
            if !isUp(attempt.link) {
                attempts[id] = nil
            } else if now &- attempt.sentAt >= Self.confirmAfter {
                attempts[id] = nil
                confirmed.append((id, attempt.sentAt))
            }
        }
        return confirmed.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// Forgets attempts for messages no longer held (`isHeld` false): expired or evicted meanwhile.
    public mutating func prune(isHeld: (MessageID) -> Bool) {
        attempts = attempts.filter { isHeld($0.key) }
    }
}
