/// Appends big-endian fields to a growing byte buffer.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer, reserving `capacity` bytes.
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends one byte.
    public mutating func write(_ value: UInt8) { bytes.append(value) }

    /// Appends a big-endian 16-bit unsigned integer.
    public mutating func write(_ value: UInt16) { writeBigEndian(UInt64(value), byteCount: 2) }

    /// Appends a big-endian 32-bit unsigned integer.
    public mutating func write(_ value: UInt32) { writeBigEndian(UInt64(value), byteCount: 4) }

    /// Appends a big-endian 64-bit unsigned integer.
    public mutating func write(_ value: UInt64) { writeBigEndian(value, byteCount: 8) }

    /// Appends raw bytes.
    public mutating func write<Bytes: Sequence>(bytes more: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: more)
    }

    private mutating func writeBigEndian(_ value: UInt64, byteCount: Int) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
