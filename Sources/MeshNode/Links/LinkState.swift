import Fragmenter
import MeshCrypto
import MeshLink
import MeshProtocol

/// The engine's state for one link.
struct LinkState {
    var info: LinkInfo
    var stage: LinkStage = .keying
    let openedAt: Duration
    /// The key exchange, first and every re-key.
    var handshake: LinkHandshake
    /// When this end last sent a handshake frame (key exchange or profile); paces retries.
    var handshakeSentAt: Duration
    /// Set while this end's opening key exchange waits for the link's MTU exchange: when it goes
    /// anyway (``EngineConfiguration/mtuExchangeWait``).
    var openingDue: Duration?
    /// When the link became ready: a peer that never acknowledges is reported
    /// ``LinkDeliveryLimits/unacknowledgedAfter`` later (PROTOCOL.md D12), however long the
    /// handshake took.
    var readyAt: Duration?
    var sender: FrameSender
    /// Messages and join notices sent on this link lately, oldest first: sent again for the
    /// neighbour if the link goes down within `HoldLimits.resendWindow` of sending them.
    var recentSends = RecentSends()
    /// The link acknowledgement and credit (PROTOCOL.md D12): what the peer has not acknowledged
    /// yet, what waits for its credit, what this end owes it.
    var delivery: LinkDelivery
    /// What is left of the link's ``EngineConfiguration/frameBudget``.
    var frames = FrameAllowance()
    /// When this link's next cover packet is due (PROTOCOL.md D14); nil: none drawn yet.
    var coverDue: Duration?

    init(info: LinkInfo, openedAt: Duration, handshake: LinkHandshake, sender: FrameSender, delivery: LinkDelivery) {
        self.delivery = delivery
        self.info = info
        self.openedAt = openedAt
        self.handshakeSentAt = openedAt
        self.handshake = handshake
        self.sender = sender
    }

    /// The stage as the public phase.
    var phase: LinkPhase {
        switch stage {
        case .keying: .keyExchange
        case .awaitingProfile: .awaitingProfile
        case .ready: .ready
        }
    }

    /// The keys and neighbour, once keyed; setting it keeps the stage (awaiting profile or ready).
    var keyed: KeyedLink? {
        get {
            switch stage {
            case .keying: nil
            case .awaitingProfile(let keyed), .ready(let keyed): keyed
            }
        }
        set {
            guard let newValue else {
                stage = .keying
                return
            }
            switch stage {
            case .keying, .awaitingProfile: stage = .awaitingProfile(newValue)
            case .ready: stage = .ready(newValue)
            }
        }
    }

    /// The neighbour on the link, once keyed.
    var neighbour: NodeID? { keyed?.neighbour }

    /// Runs `body` on the keyed link in place, keeping the stage; nil (and `body` not run)
    /// before keys. Unlike `keyed`'s get and set, the session is not copied: its replay window
    /// is mutated where it lives (the hot path of every frame sent and received).
    mutating func withKeyed<Result, Failure: Error>(
        _ body: (inout KeyedLink) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        // Move the stage out (no retain of the session's references), work, move it back.
        var taken = LinkStage.keying
        swap(&taken, &stage)
        switch consume taken {
        case .keying:
            return nil
        case .awaitingProfile(var keyed):
            defer { stage = .awaitingProfile(keyed) }
            return try body(&keyed)
        case .ready(var keyed):
            defer { stage = .ready(keyed) }
            return try body(&keyed)
        }
    }

    /// Seals `envelope` (`encoded` is its encoding) with the link keys, in place; nil before
    /// keys. The packet is opaque (PROTOCOL.md D14) when `opaque` and the peer sends opaque
    /// packets; `frameKind` is the frame kind to send it with. `rekey` is true when the keys have
    /// now carried enough (`LinkHandshake.needsRekey`).
    mutating func seal(
        _ envelope: Envelope, encoded: [UInt8], opaque: Bool, now: Duration
    ) throws(CryptoError) -> (packet: [UInt8], frameKind: UInt8, counter: UInt64, rekey: Bool)? {
        guard let (packet, frameKind, counter, messagesSent) = try withKeyed({ (keyed) throws(CryptoError) in
            let packet: [UInt8]
            let frameKind: UInt8
            if opaque, keyed.peerSendsOpaque {
                packet = try keyed.sealOpaque(kind: envelope.kind.rawValue, plaintext: encoded)
                frameKind = LinkSession.opaqueFrameKind
            } else {
                packet = try keyed.session.seal(kind: envelope.kind, messageID: envelope.messageID, plaintext: encoded)
                frameKind = envelope.kind.rawValue
            }
            return (packet, frameKind, keyed.session.lastSealedCounter, keyed.session.messagesSent)
        }) else { return nil }
        return (packet, frameKind, counter, handshake.needsRekey(messagesSent: messagesSent, now: now))
    }

    /// Splits `message` at the link's MTU with its frame sender, in place.
    mutating func split(_ message: [UInt8], kindByte: UInt8, now: Duration) throws(SplitError) -> SplitMessage {
        try sender.split(message, kind: kindByte, mtu: info.mtu, now: now)
    }

    /// Remembers a send for `window`, keeping at most `limit` (oldest dropped first).
    mutating func noteRecentSend(_ envelope: Envelope, now: Duration, window: Duration, limit: Int) {
        recentSends.note(envelope, now: now, window: window, limit: limit)
    }
}
