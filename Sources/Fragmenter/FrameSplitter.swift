/// Splits one encoded message into frames for a given transfer ID and MTU; a pure function.
///
/// Every frame but the last carries exactly `mtu − 9` slice bytes; the last carries the rest
/// (1 to `mtu − 9` bytes). Frames are at most `mtu` bytes long.
public enum FrameSplitter {
    /// The smallest usable MTU: the 9-byte header plus one slice byte.
    public static let minimumMTU = FrameHeader.length + 1
    /// The most frames one message may use (the 16-bit total).
    public static let maxFrameCount = Int(UInt16.max)

    /// How many frames a message of `messageSize` bytes needs at `mtu` (0 for an empty message).
    public static func frameCount(messageSize: Int, mtu: Int) -> Int {
        let slice = max(1, mtu - FrameHeader.length)
        return messageSize <= 0 ? 0 : (messageSize + slice - 1) / slice
    }

    /// Checks that a message can be split at `mtu` under `maxMessageSize`; returns its frame count.
    ///
    /// Checks, in this order: non-empty, at most `maxMessageSize` bytes, `mtu` at least
    /// `minimumMTU`, and at most `maxFrameCount` frames.
    public static func validate(messageSize: Int, mtu: Int, maxMessageSize: Int) throws(SplitError) -> Int {
        guard messageSize > 0 else { throw .emptyMessage }
        guard messageSize <= maxMessageSize else {
            throw .messageTooLarge(size: messageSize, limit: maxMessageSize)
        }
        guard mtu >= minimumMTU else { throw .mtuTooSmall(mtu: mtu, minimum: minimumMTU) }
        let count = frameCount(messageSize: messageSize, mtu: mtu)
        guard count <= maxFrameCount else { throw .tooManyFrames(needed: count, limit: maxFrameCount) }
        return count
    }

    /// Splits `message` into frames carrying `kind` and `transferID`, in sequence order.
    public static func frames(
        of message: [UInt8],
        kind: UInt8,
        transferID: UInt32,
        mtu: Int,
        maxMessageSize: Int = FragmenterLimits.defaultMaxMessageSize
    ) throws(SplitError) -> [[UInt8]] {
        let count = try validate(messageSize: message.count, mtu: mtu, maxMessageSize: maxMessageSize)
        let slice = mtu - FrameHeader.length
        var frames: [[UInt8]] = []
        frames.reserveCapacity(count)
        var start = 0
        for sequence in 0..<count {
            let end = min(start + slice, message.count)
            var frame: [UInt8] = []
            frame.reserveCapacity(FrameHeader.length + end - start)
            FrameHeader(kind: kind, transferID: transferID, sequence: UInt16(sequence), total: UInt16(count))
                .append(to: &frame)
            frame.append(contentsOf: message[start..<end])
            frames.append(frame)
            start = end
        }
        return frames
    }
}
