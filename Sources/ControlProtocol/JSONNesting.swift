/// The nesting bound that `JSONDecoder` leaves to its caller (it stops at 512 levels; the control
/// protocol at 32): one pass over the bytes that counts brackets outside strings.
enum JSONNesting {
    /// False when an array or object in `bytes` lies deeper than `depth` (the outermost is level 1).
    /// Brackets that do not pair are left to the decoder, which refuses them.
    static func fits(_ bytes: some Collection<UInt8>, depth limit: Int) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return false }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return true
    }
}
