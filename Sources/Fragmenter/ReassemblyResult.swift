/// What a reassembler did with one accepted or ignored frame (rejections are thrown instead).
public enum ReassemblyResult: Equatable, Hashable, Sendable {
    /// The fragment was stored; its message is not complete yet.
    case incomplete
    /// The fragment repeated one already held or belonged to a just-completed transfer; it was ignored.
    case duplicate
    /// The fragment completed a message, returned in order and removed from the buffers.
    case complete(kind: UInt8, transferID: UInt32, message: [UInt8])
}
