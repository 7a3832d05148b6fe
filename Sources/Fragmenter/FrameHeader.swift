/// The 9-byte header at the front of every frame: kind, transfer ID, sequence number and total,
/// all big-endian, followed by one slice of an encoded message.
public struct FrameHeader: Equatable, Hashable, Sendable {
    /// The header length in bytes.
    public static let length = 9

    /// The message kind byte; the fragmenter carries it but does not interpret it.
    public var kind: UInt8
    /// The transfer ID shared by every frame of one message on one link.
    public var transferID: UInt32
    /// The 0-based position of this frame's slice within the message.
    public var sequence: UInt16
    /// The number of frames the message was split into (at least 1).
    public var total: UInt16

    /// Creates a header.
    public init(kind: UInt8, transferID: UInt32, sequence: UInt16, total: UInt16) {
        self.kind = kind
        self.transferID = transferID
        self.sequence = sequence
        self.total = total
    }

    /// Reads and checks the header of a received frame.
    ///
    /// Checks, in this order: at least 9 bytes, a non-zero total, a sequence number below the
    /// total, and a non-empty slice. The slice is `frame[FrameHeader.length...]`.
    public init(parsing frame: [UInt8]) throws(FragmentError) {
        guard frame.count >= Self.length else { throw .frameTooShort(length: frame.count) }
        let kind = frame[0]
        let transferID = UInt32(frame[1]) << 24 | UInt32(frame[2]) << 16
            | UInt32(frame[3]) << 8 | UInt32(frame[4])
        let sequence = UInt16(frame[5]) << 8 | UInt16(frame[6])
        let total = UInt16(frame[7]) << 8 | UInt16(frame[8])
        guard total > 0 else { throw .zeroTotal }
        guard sequence < total else { throw .sequenceOutOfRange(sequence: sequence, total: total) }
        guard frame.count > Self.length else { throw .emptySlice }
        self.init(kind: kind, transferID: transferID, sequence: sequence, total: total)
    }

    /// True when this is the last frame of its message.
    public var isLast: Bool { sequence &+ 1 == total }

    /// Appends the 9 header bytes to `bytes`.
    public func append(to bytes: inout [UInt8]) {
        bytes.append(kind)
        bytes.append(UInt8(truncatingIfNeeded: transferID >> 24))
        bytes.append(UInt8(truncatingIfNeeded: transferID >> 16))
        bytes.append(UInt8(truncatingIfNeeded: transferID >> 8))
        bytes.append(UInt8(truncatingIfNeeded: transferID))
        bytes.append(UInt8(truncatingIfNeeded: sequence >> 8))
        bytes.append(UInt8(truncatingIfNeeded: sequence))
        bytes.append(UInt8(truncatingIfNeeded: total >> 8))
        bytes.append(UInt8(truncatingIfNeeded: total))
    }

    /// The 9 header bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.length)
        append(to: &out)
        return out
    }
}
