/// Why a message could not be split into frames.
public enum SplitError: Error, Equatable, Hashable, Sendable {
    /// The message is empty; frames never carry empty slices, so there is nothing to send.
    case emptyMessage
    /// The message is larger than the message cap.
    case messageTooLarge(size: Int, limit: Int)
    /// The MTU leaves no room for a slice after the 9-byte header.
    case mtuTooSmall(mtu: Int, minimum: Int)
    /// The message would need more frames than the 16-bit total can count.
    case tooManyFrames(needed: Int, limit: Int)
    /// The random source kept returning transfer IDs that are still held for this link.
    case transferIDUnavailable(attempts: Int)
}
