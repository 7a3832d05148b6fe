/// One message split for one link: its transfer ID and its frames in sequence order.
public struct SplitMessage: Equatable, Hashable, Sendable {
    /// The transfer ID chosen for the message.
    public let transferID: UInt32
    /// The frames, each at most the MTU long, to send in order.
    public let frames: [[UInt8]]

    /// Creates a split message.
    public init(transferID: UInt32, frames: [[UInt8]]) {
        self.transferID = transferID
        self.frames = frames
    }
}
