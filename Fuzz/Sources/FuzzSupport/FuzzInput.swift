/// A cursor over one fuzz input: fixed-size reads that never fail (missing bytes read as zero).
public struct FuzzInput {
    /// The whole input.
    public let bytes: [UInt8]
    /// How many bytes have been consumed.
    public private(set) var position = 0

    /// Copies libFuzzer's buffer.
    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Wraps bytes (for building a seed by hand).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// True when every byte was consumed.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 at the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Up to `count` next bytes (fewer at the end).
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Every byte not consumed yet.
    public mutating func rest() -> [UInt8] { take(bytes.count - position) }
}

/// Stops the process (a crash libFuzzer records) when a property the target checks fails.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    fatalError("fuzz check failed: \(message())", file: file, line: line)
}
