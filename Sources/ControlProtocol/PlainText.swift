/// Text made safe for one terminal or journal line: what the log and relayctl print.
public enum PlainText {
    /// The text with control characters (newlines, escapes) replaced by spaces, at most
    /// `maxBytes` UTF-8 bytes (cut at a character boundary).
    public static func sanitized(_ text: String, maxBytes: Int = 2048) -> String {
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            let clean: Unicode.Scalar = scalar.properties.generalCategory == .control ? " " : scalar
            bytes += String(clean).utf8.count
            if bytes > maxBytes { break }
            scalars.append(clean)
        }
        return String(scalars)
    }
}
