/// Splits a byte stream into newline-terminated lines, holding at most `maxLineBytes` of a partial line.
struct LineBuffer: Sendable {
    /// What `append` found.
    enum Item: Equatable, Sendable {
        /// A complete line without its `\n` (and without a trailing `\r`).
        case line([UInt8])
        /// A line grew past the limit; the buffer refuses further input.
        case tooLong
    }

    /// The longest line accepted, without its newline.
    let maxLineBytes: Int
    private var partial: [UInt8] = []
    private(set) var overflowed = false

    /// Creates an empty buffer.
    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// True while a line has started but not ended.
    var hasPartialLine: Bool { !partial.isEmpty }

    /// Adds bytes and returns the lines they complete, in order; empty lines are skipped.
    mutating func append<Bytes: Collection>(_ bytes: Bytes) -> [Item] where Bytes.Element == UInt8 {
        guard !overflowed else { return [] }
        var items: [Item] = []
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let piece = bytes[start..<newline]
            guard partial.count + piece.count <= maxLineBytes else { return items + [overflow()] }
            var line = partial + piece
            partial.removeAll(keepingCapacity: true)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if !line.isEmpty { items.append(.line(line)) }
            start = bytes.index(after: newline)
        }
        let rest = bytes[start...]
        guard partial.count + rest.count <= maxLineBytes else { return items + [overflow()] }
        partial.append(contentsOf: rest)
        return items
    }

    private mutating func overflow() -> Item {
        overflowed = true
        partial = []
        return .tooLong
    }
}
