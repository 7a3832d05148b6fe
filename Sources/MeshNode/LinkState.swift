import Fragmenter
import MeshCrypto
import MeshLink
import MeshProtocol

/// Where a link is in its life: keys first, then the profile, then traffic.
public enum LinkPhase: String, Sendable {
    /// Waiting for the key exchange to complete.
    case keyExchange
    /// Keys are agreed; waiting for the neighbour's signed profile.
    case awaitingProfile
    /// The profile is verified; the link carries traffic for its neighbour.
    case ready
}

/// What a link has once its key exchange verified: the link seal and who is on the other end.
struct KeyedLink {
    /// Seals and opens this link's packets.
    var session: LinkSession
    /// The neighbour's identity, proven by its key exchange.
    let peer: NodeID
    /// When the current keys were agreed.
    var keyedAt: Duration
    /// Whether our profile went out on these keys (again only while the handshake is unfinished).
    var profileSent = false
}

/// A link's stage, each case with the data it has.
enum LinkStage {
    /// Waiting for the key exchange; the handshake lives in `LinkState` (it also re-keys later).
    case keying
    /// Keyed; waiting for the neighbour's profile.
    case awaitingProfile(KeyedLink)
    /// The neighbour's profile verified; the link carries its traffic.
    case ready(KeyedLink)
}

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

    /// The keys and peer, once keyed; setting it keeps the stage (awaiting profile or ready).
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
    var peer: NodeID? { keyed?.peer }
}
