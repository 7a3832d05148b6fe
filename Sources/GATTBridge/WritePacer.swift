/// Which ATT write each frame on one link goes out as, so that bluetoothd never holds more than a
/// few of our frames for a link (docs/BLUEZ.md, "How our writes go out"). A pure value.
///
/// A Write Request is answered by the peer's stack, so while one is outstanding nothing else of
/// ours waits in bluetoothd. A Write Command is answered by our own bluetoothd as soon as it has
/// queued the write, so a sender that only waited for those answers could pile frames up in
/// bluetoothd and the kernel faster than the radio carries them. With ``GATTWriteType/command``
/// the pacer therefore sends at most `window − 1` commands in a row and then a request: bluetoothd
/// sends its queued commands before a request on the same bearer and the peer handles them in
/// order, so the request's answer means every earlier command has left us. The transport keeps one
/// `WriteValue` outstanding per link, so at most `window` frames of a link are ever unconfirmed.
public struct WritePacer: Equatable, Sendable {
    /// The default window: frames of a link that may be unconfirmed by the peer's stack at once.
    public static let defaultWindow = 4
    /// The ATT write asked for in the configuration.
    public let configured: GATTWriteType
    /// Frames that may be unconfirmed at once (at least 1; 1 makes every write a request).
    public let window: Int
    /// Commands written since the last answered request.
    public private(set) var unconfirmed = 0

    /// Creates a pacer for one link.
    public init(configured: GATTWriteType, window: Int = WritePacer.defaultWindow) {
        self.configured = configured
        self.window = max(1, window)
    }

    /// The write type of the next frame.
    public var next: GATTWriteType {
        configured == .command && unconfirmed + 1 < window ? .command : .request
    }

    /// Records that a write of `type` was answered without an error.
    public mutating func written(_ type: GATTWriteType) {
        switch type {
        case .command: unconfirmed += 1
        case .request: unconfirmed = 0
        }
    }
}
