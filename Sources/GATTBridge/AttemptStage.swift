/// Where a central connection attempt stands.
public enum AttemptStage: String, Equatable, Sendable, CaseIterable {
    /// Waiting for our discovery session to stop (Connect while discovering is slow).
    case stoppingDiscovery
    /// `Device1.Connect` sent, no answer yet.
    case connecting
    /// Connected; waiting for BlueZ to resolve the peer's GATT database and for our characteristic in it.
    case resolving
    /// `StartNotify` sent on the peer's message characteristic.
    case subscribing

    /// Whether the LE connection may already exist (Connect answered): from here on it is shared with
    /// the peer, which may use it as its own central link.
    public var pastConnect: Bool { self == .resolving || self == .subscribing }
}
