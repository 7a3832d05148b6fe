import MeshNode
import MeshProtocol

/// One 32-byte slot of `seen.journal`: a message ID the seen cache took in, when it expires, and
/// the slot's place in the order of writes.
///
/// Layout, big-endian: the 16-byte message ID, its expiry in seconds since the Unix epoch (u32,
/// rounded up), the write's sequence number (u64, from 1, one more per slot written, never
/// reused), a CRC-32 of the 28 bytes before it XOR `0x4D4E534A` ("MNSJ"). A slot of zeros was
/// never written; any other slot whose checksum disagrees was torn or damaged and is skipped.
public struct SeenJournalSlot: Equatable, Sendable {
    /// Bytes per slot.
    public static let size = 32
    /// XORed into the checksum, so bytes of another format rarely pass for a slot.
    static let salt: UInt32 = 0x4D4E_534A

    /// The message ID.
    public var messageID: MessageID
    /// When the ID expires, in seconds since the Unix epoch.
    public var expiresAtSeconds: UInt32
    /// The write's sequence number; the newest slot has the highest.
    public var sequence: UInt64

    /// Creates a slot.
    public init(messageID: MessageID, expiresAtSeconds: UInt32, sequence: UInt64) {
        self.messageID = messageID
        self.expiresAtSeconds = expiresAtSeconds
        self.sequence = sequence
    }

    /// A slot for a seen-cache entry (expiry in milliseconds, rounded up to whole seconds).
    public init(_ entry: SeenCacheSnapshot.Entry, sequence: UInt64) {
        let seconds = entry.expiresAt / 1000 + (entry.expiresAt % 1000 == 0 ? 0 : 1)
        self.init(messageID: entry.messageID, expiresAtSeconds: UInt32(clamping: seconds), sequence: sequence)
    }

    /// The entry the slot holds, its expiry in milliseconds.
    public var entry: SeenCacheSnapshot.Entry {
        SeenCacheSnapshot.Entry(messageID: messageID, expiresAt: UInt64(expiresAtSeconds) * 1000)
    }

    /// Appends the slot's 32 bytes to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        let start = bytes.count
        bytes += messageID.bytes
        Self.append(expiresAtSeconds, to: &bytes)
        Self.append(sequence, to: &bytes)
        Self.append(CRC32.checksum(bytes[start...]) ^ Self.salt, to: &bytes)
    }

    /// What 32 bytes hold.
    public enum Decoded: Equatable, Sendable {
        /// A slot written whole.
        case slot(SeenJournalSlot)
        /// All zeros: never written.
        case empty
        /// The checksum disagrees: torn by a power cut, or damaged.
        case damaged
    }

    /// Decodes the 32 bytes at `offset` of `bytes`; the caller guarantees they are there.
    public static func decode(_ bytes: [UInt8], at offset: Int) -> Decoded {
        let slice = bytes[offset..<(offset + size)]
        if slice.allSatisfy({ $0 == 0 }) { return .empty }
        let stored = UInt32(truncatingIfNeeded: integer(bytes, at: offset + 28, width: 4))
        guard CRC32.checksum(bytes[offset..<(offset + 28)]) ^ salt == stored,
              let id = try? MessageID(bytes: Array(bytes[offset..<(offset + 16)]))
        else { return .damaged }
        return .slot(SeenJournalSlot(
            messageID: id, expiresAtSeconds: UInt32(truncatingIfNeeded: integer(bytes, at: offset + 16, width: 4)),
            sequence: integer(bytes, at: offset + 20, width: 8)))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
