import Glibc

/// A bounds-checked cursor over untrusted bytes.
///
/// Every read checks the bytes left before it touches them, so a decoder built on it
/// cannot trap or allocate from an unchecked length.
public struct ByteReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    /// Creates a reader positioned at the first byte.
    public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
        self.offset = 0
    }

    /// How many bytes are left to read.
    public var remaining: Int { bytes.count - offset }

    /// True when every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Reads one byte.
    public mutating func readUInt8() throws(WireError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(needed: 1, remaining: remaining) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a big-endian 16-bit unsigned integer.
    public mutating func readUInt16() throws(WireError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readBigEndian(byteCount: 2))
    }

    /// Reads a big-endian 32-bit unsigned integer.
    public mutating func readUInt32() throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(byteCount: 4))
    }

    /// Reads a big-endian 64-bit unsigned integer.
    public mutating func readUInt64() throws(WireError) -> UInt64 {
        try readBigEndian(byteCount: 8)
    }

    /// Reads exactly `count` bytes; the count is checked against the bytes left first.
    public mutating func readBytes(_ count: Int) throws(WireError) -> [UInt8] {
        guard count >= 0, remaining >= count else {
            throw .truncated(needed: count, remaining: remaining)
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads all bytes that are left.
    public mutating func readRest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    private mutating func readBigEndian(byteCount: Int) throws(WireError) -> UInt64 {
        guard remaining >= byteCount else { throw .truncated(needed: byteCount, remaining: remaining) }
        var value: UInt64 = 0
        for index in offset..<offset + byteCount {
            value = value << 8 | UInt64(bytes[index])
        }
        offset += byteCount
        return value
    }
}
