import Fragmenter
import MeshCrypto
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

/// The engine's state for one link.
struct LinkState {
    var info: LinkInfo
    var phase: LinkPhase = .keyExchange
    let openedAt: Duration
    var handshake: LinkHandshake
    var session: LinkSession?
    var keyedAt: Duration?
    /// The neighbour's identity, known once its key exchange verified.
    var peer: NodeID?
    var profileSent = false
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
}
