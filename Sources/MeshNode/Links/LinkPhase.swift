/// Where a link is in its life: keys first, then the profile, then traffic.
public enum LinkPhase: String, Sendable {
    /// Waiting for the key exchange to complete.
    case keyExchange
    /// Keys are agreed; waiting for the neighbour's signed profile.
    case awaitingProfile
    /// The profile is verified; the link carries traffic for its neighbour.
    case ready
}
