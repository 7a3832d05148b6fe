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
    var sender: FrameSender
    /// Messages and join notices sent on this link lately, oldest first: sent again for the
    /// neighbour if the link goes down within `HoldLimits.resendWindow` of sending them.
    var recentSends: [(envelope: Envelope, sentAt: Duration)] = []

    init(info: LinkInfo, openedAt: Duration, handshake: LinkHandshake, sender: FrameSender) {
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
}
