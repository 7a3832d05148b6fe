/// Parses one JSON document (RFC 8259) into a `JSONValue`, within `JSONLimits`.
///
/// Strict: no comments, no trailing commas, no leading zeros, no lone surrogates, no control
/// characters inside strings, nothing but white space after the value.
public struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var offset = 0
    private var depth = 0

    /// Parses `input` as one document.
    public static func parse(_ input: some Collection<UInt8>, limits: JSONLimits = .standard) throws(JSONError) -> JSONValue {
        guard input.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        let array = Array(input)
        let result: Result<JSONValue, JSONError> = array.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: limits)
            do throws(JSONError) {
                parser.skipSpace()
                let value = try parser.value()
                parser.skipSpace()
                guard parser.offset == buffer.count else { throw .trailingBytes(offset: parser.offset) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard let found = current else { throw .unexpectedEnd }
        guard found == byte else { throw .unexpectedByte(found, offset: offset) }
        offset += 1
    }

    private mutating func value() throws(JSONError) -> JSONValue {
        guard let byte = current else { throw .unexpectedEnd }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw .unexpectedByte(byte, offset: offset)
        }
    }

    private mutating func literal(_ word: String) throws(JSONError) {
        for byte in word.utf8 { try expect(byte) }
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        guard depth <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth) }
    }

    private mutating func object() throws(JSONError) -> JSONValue {
        try enter()
        offset += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current != nil else { throw .unexpectedEnd }
            guard current == UInt8(ascii: "\"") else { throw .unexpectedByte(current!, offset: offset) }
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            let member = try value()
            if members[key] == nil { members[key] = member }
            skipSpace()
            guard let next = current else { throw .unexpectedEnd }
            offset += 1
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: offset - 1) }
        }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(JSONError) -> JSONValue {
        try enter()
        offset += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value())
            skipSpace()
            guard let next = current else { throw .unexpectedEnd }
            offset += 1
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: offset - 1) }
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func number() throws(JSONError) -> String {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, isDigit(first) else { throw .invalidNumber(offset: start) }
        offset += 1
        if first == UInt8(ascii: "0"), let next = current, isDigit(next) { throw .invalidNumber(offset: start) }
        skipDigits()
        if current == UInt8(ascii: ".") {
            offset += 1
            guard let digit = current, isDigit(digit) else { throw .invalidNumber(offset: start) }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard let digit = current, isDigit(digit) else { throw .invalidNumber(offset: start) }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { offset += 1 }
    }

    private mutating func string() throws(JSONError) -> String {
        offset += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw .unexpectedEnd }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                let text = String(decoding: utf8, as: UTF8.self)
                guard text.utf8.elementsEqual(utf8) else { throw .invalidString(offset: offset) }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case 0..<0x20:
                throw .invalidString(offset: offset)
            default:
                utf8.append(byte)
                offset += 1
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONError) {
        let start = offset
        offset += 1
        guard let byte = current else { throw .unexpectedEnd }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(start)
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                else { throw .invalidString(offset: start) }
                offset += 2
                let low = try hex4(start)
                guard (0xDC00..<0xE000).contains(low) else { throw .invalidString(offset: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw .invalidString(offset: start)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalidString(offset: start) }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw .invalidEscape(offset: start)
        }
    }

    private mutating func hex4(_ start: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw .unexpectedEnd }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidEscape(offset: start)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }
}
