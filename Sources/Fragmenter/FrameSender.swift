/// The sending side of one link: picks a random transfer ID per message that is not held for
/// the link, and splits the message at the link's current MTU.
///
/// A used ID is held for `limits.transferIDHoldTime` (twice the reassembly timeout) or until
/// `limits.heldTransferIDsPerLink` newer IDs push it out, whichever comes first.
public struct FrameSender: Sendable {
    /// How many random IDs are drawn before giving up with `SplitError.transferIDUnavailable`.
    public static let maxDraws = 16

    /// The limits in force.
    public let limits: FragmenterLimits
    private var random: any RandomNumberGenerator & Sendable
    private var held: [UInt32: Duration] = [:]
    private var heldOrder = FIFOQueue<HeldID>()

    private struct HeldID: Sendable {
        let id: UInt32
        let since: Duration
    }

    /// Creates a sender; `random` supplies transfer IDs (inject a seeded generator in tests).
    public init(
        limits: FragmenterLimits = FragmenterLimits(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.limits = limits
        self.random = random
    }

    /// How many transfer IDs are held for this link.
    public var heldTransferIDCount: Int { held.count }

    /// True when `transferID` is held and will not be picked.
    public func isHeld(_ transferID: UInt32) -> Bool { held[transferID] != nil }

    /// Splits `message` with a fresh transfer ID at `mtu` (the largest frame the link carries now).
    ///
    /// `now` is the time since an arbitrary fixed origin, never decreasing; it releases IDs
    /// held longer than the hold time. A failed split holds no ID.
    public mutating func split(_ message: [UInt8], kind: UInt8, mtu: Int, now: Duration) throws(SplitError) -> SplitMessage {
        _ = try FrameSplitter.validate(messageSize: message.count, mtu: mtu, maxMessageSize: limits.maxMessageSize)
        expire(now: now)
        let transferID = try drawTransferID()
        hold(transferID, now: now)
        let frames = try FrameSplitter.frames(
            of: message, kind: kind, transferID: transferID, mtu: mtu, maxMessageSize: limits.maxMessageSize)
        return SplitMessage(transferID: transferID, frames: frames)
    }

    /// Releases IDs held for at least the hold time.
    public mutating func expire(now: Duration) {
        let holdTime = limits.transferIDHoldTime
        while let oldest = heldOrder.first, now - oldest.since >= holdTime {
            release(oldest)
        }
    }

    private mutating func drawTransferID() throws(SplitError) -> UInt32 {
        for _ in 0..<Self.maxDraws {
            let candidate = UInt32(truncatingIfNeeded: random.next() >> 32)
            if held[candidate] == nil { return candidate }
        }
        throw .transferIDUnavailable(attempts: Self.maxDraws)
    }

    private mutating func hold(_ transferID: UInt32, now: Duration) {
        while held.count >= limits.heldTransferIDsPerLink, let oldest = heldOrder.first {
            release(oldest)
        }
        held[transferID] = now
        heldOrder.append(HeldID(id: transferID, since: now))
    }

    private mutating func release(_ entry: HeldID) {
        heldOrder.removeFirst()
        // One look-up, not one to compare and one to remove.
        if let index = held.index(forKey: entry.id), held.values[index] == entry.since { held.remove(at: index) }
    }
}
