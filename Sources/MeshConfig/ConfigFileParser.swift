/// Splits meshnoded.conf into statements: `[section]`, `key = value`, whole-line `#` comments.
///
/// There is no quoting and no inline comment: everything after the first `=` is the value,
/// trimmed of spaces and tabs. Sizes are checked before any text is interpreted.
public enum ConfigFileParser {
    /// The largest file accepted, in bytes.
    public static let maxFileBytes = 65_536
    /// The longest line accepted, in bytes, without its line ending.
    public static let maxLineBytes = 1_024

    /// Parses a whole file; throws only for problems of the file as a whole.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> [ConfigStatement] {
        guard bytes.count <= maxFileBytes else {
            throw ConfigError(file: file, line: nil, problem: .fileTooLarge(limit: maxFileBytes))
        }
        guard !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else {
            throw ConfigError(file: file, line: nil, problem: .notText)
        }
        var statements: [ConfigStatement] = []
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var lineBytes = Array(rawLine)
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes.removeLast() }
            guard lineBytes.count <= maxLineBytes else {
                statements.append(ConfigStatement(line: lineNumber, content: .invalid(.lineTooLong(limit: maxLineBytes))))
                continue
            }
            if let content = interpret(String(decoding: lineBytes, as: UTF8.self)) {
                statements.append(ConfigStatement(line: lineNumber, content: content))
            }
        }
        return statements
    }

    /// Interprets one line; nil for blank lines and comments.
    static func interpret(_ line: String) -> ConfigStatement.Content? {
        let text = trimmed(Substring(line))
        if text.isEmpty || text.hasPrefix("#") { return nil }
        if text.hasPrefix("[") {
            guard text.hasSuffix("]"), text.count >= 2 else { return .invalid(.syntax("unclosed section header")) }
            let name = trimmed(text.dropFirst().dropLast())
            guard isName(name) else { return .invalid(.syntax("bad section name '\(name)'")) }
            return .section(String(name))
        }
        guard let equals = text.firstIndex(of: "=") else {
            return .invalid(.syntax("expected 'key = value', '[section]' or '# comment'"))
        }
        let key = trimmed(text[..<equals])
        guard !key.isEmpty else { return .invalid(.syntax("missing key before '='")) }
        guard isName(key) else { return .invalid(.syntax("bad key '\(key)'")) }
        return .setting(key: String(key), value: String(trimmed(text[text.index(after: equals)...])))
    }

    /// Keys and section names: lowercase letters, digits, `_` and `.`.
    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }),
              let last = text.lastIndex(where: { !isBlank($0) }) else { return "" }
        return text[first...last]
    }
}
