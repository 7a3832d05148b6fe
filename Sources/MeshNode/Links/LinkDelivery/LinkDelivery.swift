import MeshProtocol

/// One link's acknowledgement and credit (docs/PROTOCOL.md D12), as a value: what this end must
/// acknowledge to its peer, and what it sent that the peer has not acknowledged yet.
///
/// The engine asks it before every send (`decide`), tells it what went out (`sent`) and what came
/// in (`accepted`, `receive`), and performs the ``Release`` it returns: packets to send again,
/// packets that waited for credit, packets given up. No clock and no radio: `now` is passed in.
struct LinkDelivery {
    /// One envelope sent on the link and not yet acknowledged.
    struct Outstanding: Equatable {
        /// Its link-packet counter under the current keys.
        let counter: UInt64
        let envelope: Envelope
        let sentAt: Duration
        /// 1 for the first send on this link, 2 for the first resend, …
        let attempt: Int
    }

    /// An envelope to send again, with the attempt it will be.
    struct Resend: Equatable {
        let envelope: Envelope
        let attempt: Int
    }

    /// What the engine does after an acknowledgement or a tick.
    struct Release: Equatable {
        /// Lost or unacknowledged in time: send again (they do not wait for credit).
        var resend: [Resend] = []
        /// Waited for credit, and the credit now allows them.
        var send: [Envelope] = []
        /// Sent `attempts` times without an acknowledgement: given up on this link.
        var gaveUp: [Envelope] = []
        /// Packets this acknowledgement confirmed.
        var acknowledged = 0
        /// Packets whose acknowledgement timed out.
        var timedOut = 0
    }

    /// What to do with an envelope about to be sent.
    enum SendDecision: Equatable {
        /// Seal and send it now.
        case send
        /// The peer's credit is used up: it waits on this link and goes out when acknowledgements free credit.
        case wait
        /// Credit used up and the waiting line full: not sent.
        case refuse
    }

    let limits: LinkDeliveryLimits
    /// Whether the peer sent any acknowledgement on this link: only then is anything tracked,
    /// held back for credit, or acknowledged at more than the first (announcing) one.
    private(set) var peerAcknowledges = false
    /// The peer's latest credit, capped at ``LinkDeliveryLimits/maxOutstanding``.
    private(set) var peerCredit = 0
    /// Whether the engine reported this link's peer as one that sends no acknowledgements.
    var reportedUnacknowledged = false
    private var acceptedSinceAcknowledgement = 0
    private(set) var outstanding: [Outstanding] = []
    private var waiting: [Envelope] = []
    private var waitingHead = 0

    init(limits: LinkDeliveryLimits) {
        self.limits = limits
    }

    /// The kinds whose packets are tracked, held for credit and sent again: those a receiver
    /// drops a second copy of by message ID (PROTOCOL.md D12). Profiles and heartbeats have
    /// their own repeats.
    static func tracks(_ kind: MessageKind) -> Bool { kind.isFlooded }

    /// Envelopes waiting for credit.
    var waitingCount: Int { waiting.count - waitingHead }

    // MARK: Sending

    /// Whether `envelope` may go out now; `.wait` keeps it here until credit allows.
    mutating func decide(_ envelope: Envelope) -> SendDecision {
        guard peerAcknowledges, Self.tracks(envelope.kind) else { return .send }
        if waitingCount == 0, outstanding.count < peerCredit { return .send }
        guard waitingCount < limits.waitingLimit else { return .refuse }
        waiting.append(envelope)
        return .wait
    }

    /// `envelope` went out sealed with link-packet counter `counter`.
    mutating func sent(_ envelope: Envelope, counter: UInt64, attempt: Int, now: Duration) {
        guard peerAcknowledges, Self.tracks(envelope.kind) else { return }
        outstanding.append(Outstanding(counter: counter, envelope: envelope, sentAt: now, attempt: attempt))
    }

    /// The peer's acknowledgement, opened with the current keys. Packets it names are done;
    /// packets below its highest counter that it does not name were lost (a link keeps order)
    /// and go again; then what waited goes, as far as the new credit allows.
    mutating func receive(_ acknowledgement: LinkAcknowledgementBody, now: Duration) -> Release {
        peerAcknowledges = true
        peerCredit = min(Int(acknowledgement.credit), LinkDeliveryLimits.maxOutstanding)
        return sweep { entry in
            if acknowledgement.acknowledges(entry.counter) { return .acknowledged }
            return entry.counter < acknowledgement.highest ? .lost : .inFlight
        }
    }

    /// How long the `attempt`-th send of a packet waits for its acknowledgement: the timeout,
    /// doubled for each send before it, at most ``LinkDeliveryLimits/longestTimeout``. A slow
    /// peer (a loaded Pi, a congested radio) then gets fewer copies, not a storm of them.
    func timeout(forAttempt attempt: Int) -> Duration {
        Self.timeout(forAttempt: attempt, limits: limits)
    }

    private static func timeout(forAttempt attempt: Int, limits: LinkDeliveryLimits) -> Duration {
        var timeout = limits.acknowledgementTimeout
        for _ in 1..<max(1, attempt) where timeout < LinkDeliveryLimits.longestTimeout { timeout = timeout * 2 }
        return min(timeout, LinkDeliveryLimits.longestTimeout)
    }

    /// Sends again what waited its timeout (``timeout(forAttempt:)``) for its acknowledgement.
    mutating func tick(now: Duration) -> Release {
        guard peerAcknowledges else { return Release() }
        let limits = limits
        return sweep { entry in now - entry.sentAt >= Self.timeout(forAttempt: entry.attempt, limits: limits) ? .timedOut : .inFlight }
    }

    /// What one outstanding packet is, to a sweep.
    private enum Verdict {
        case acknowledged, lost, timedOut, inFlight
    }

    /// Keeps the packets `verdict` finds in flight, sends again (or gives up) the lost and timed
    /// out ones, then releases what waited as far as the credit allows.
    private mutating func sweep(_ verdict: (Outstanding) -> Verdict) -> Release {
        var release = Release()
        var kept: [Outstanding] = []
        kept.reserveCapacity(outstanding.count)
        for entry in outstanding {
            switch verdict(entry) {
            case .acknowledged:
                release.acknowledged += 1
            case .lost:
                retry(entry, into: &release)
            case .timedOut:
                release.timedOut += 1
                retry(entry, into: &release)
            case .inFlight:
                kept.append(entry)
            }
        }
        outstanding = kept
        release.send = takeReleasable(inFlightSoon: release.resend.count)
        return release
    }

    private func retry(_ entry: Outstanding, into release: inout Release) {
        if entry.attempt >= limits.attempts {
            release.gaveUp.append(entry.envelope)
        } else {
            release.resend.append(Resend(envelope: entry.envelope, attempt: entry.attempt + 1))
        }
    }

    /// Waiting envelopes the credit now allows, oldest first, counting `inFlightSoon` resends.
    private mutating func takeReleasable(inFlightSoon: Int) -> [Envelope] {
        var released: [Envelope] = []
        while waitingCount > 0, outstanding.count + inFlightSoon + released.count < peerCredit {
            released.append(waiting[waitingHead])
            waitingHead += 1
        }
        if waitingHead > 0, waitingHead * 2 >= waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
        return released
    }

    /// New keys: counters start again at 1, so what the old keys carried unacknowledged is
    /// returned to be sent again under the new ones (the peer drops a second copy by message ID).
    mutating func rekeyed() -> [Resend] {
        let resend = outstanding.map { Resend(envelope: $0.envelope, attempt: $0.attempt) }
        outstanding = []
        acceptedSinceAcknowledgement = 0
        return resend
    }

    /// The link is gone: every envelope not acknowledged, oldest first (sent, then waiting).
    mutating func unconfirmed() -> [Envelope] {
        let envelopes = outstanding.map(\.envelope) + waiting[waitingHead...]
        outstanding = []
        waiting = []
        waitingHead = 0
        return envelopes
    }

    // MARK: Receiving

    /// A packet from the peer opened; true when an acknowledgement is due at once.
    mutating func accepted() -> Bool {
        acceptedSinceAcknowledgement += 1
        return peerAcknowledges && acceptedSinceAcknowledgement >= limits.acknowledgeEvery
    }

    /// True when packets were accepted since the last acknowledgement and the peer takes them.
    var acknowledgementDue: Bool { peerAcknowledges && acceptedSinceAcknowledgement > 0 }

    /// An acknowledgement went out.
    mutating func acknowledgementSent() {
        acceptedSinceAcknowledgement = 0
    }
}
