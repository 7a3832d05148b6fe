/// A link's stage, each case with the data it has.
enum LinkStage {
    /// Waiting for the key exchange; the handshake lives in `LinkState` (it also re-keys later).
    case keying
    /// Keyed; waiting for the neighbour's profile.
    case awaitingProfile(KeyedLink)
    /// The neighbour's profile verified; the link carries its traffic.
    case ready(KeyedLink)
}
