/// Which GATT role this node plays on a link.
public enum LinkRole: String, Sendable, CaseIterable {
    /// We connected to the peer and write to its message characteristic.
    case central
    /// The peer connected to us; we notify it through our own characteristic.
    case peripheral
}
