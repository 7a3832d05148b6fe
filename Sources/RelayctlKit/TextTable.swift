import ControlProtocol
/// A plain-text table with aligned columns, for relayctl's human output.
public struct TextTable: Sendable {
    /// How a column's cells line up.
    public enum Alignment: Sendable {
        /// Padded on the right (text).
        case left
        /// Padded on the left (numbers).
        case right
    }

    /// The column titles.
    public var headers: [String]
    /// The alignment of each column.
    public var alignments: [Alignment]
    /// The rows; each has one cell per column.
    public var rows: [[String]] = []

    /// Creates an empty table; columns are left-aligned unless `alignments` says otherwise.
    public init(headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
    }

    /// Adds a row; missing cells are blank, extra cells are dropped, control characters become spaces.
    public mutating func append(_ cells: [String]) {
        rows.append(headers.indices.map { $0 < cells.count ? PlainText.sanitized(cells[$0], maxBytes: .max) : "" })
    }

    /// The table: a header line, then one line per row; columns are two spaces apart, no trailing blanks.
    public func rendered() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { Self.displayWidth($0[column]) }.max() ?? 0 }
        let lines = all.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - Self.displayWidth(cell))
                let isLast = column == row.count - 1
                if column > 0 { line += "  " }
                switch alignments[column] {
                case .left: line += isLast ? cell : cell + padding
                case .right: line += padding + cell
                }
            }
            return line
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Terminal columns a string takes: emoji presentation counts two, combining marks zero.
    public static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { width, character in
            let scalars = character.unicodeScalars
            if scalars.contains(where: { $0.properties.isEmojiPresentation }) || scalars.contains(where: { $0.value == 0xFE0F }) {
                return width + 2
            }
            let wide = scalars.first.map { (0x1100...0x115F).contains($0.value) || (0x2E80...0xA4CF).contains($0.value)
                || (0xAC00...0xD7A3).contains($0.value) || (0xF900...0xFAFF).contains($0.value)
                || (0xFF00...0xFF60).contains($0.value) || (0xFFE0...0xFFE6).contains($0.value) } ?? false
            return width + (wide ? 2 : 1)
        }
    }
}
