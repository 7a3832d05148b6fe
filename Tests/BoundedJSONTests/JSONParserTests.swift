import BoundedJSON
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    private func parse(_ text: String, limits: JSONLimits = .standard) throws(JSONError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8), limits: limits)
    }

    @Test("escapes decode to the characters they name", arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{c}\n\r\t"),
        (#""\u0041\u00e9\u20AC""#, "Aé€"),
        (#""\ud83d\ude00""#, "😀"),
        (#""é😀 raw""#, "é😀 raw"),
        (#""\u0000""#, "\u{0}"),
    ])
    func escapesDecode(json: String, text: String) throws {
        #expect(try parse(json) == .string(text))
    }

    @Test("malformed strings are refused with a typed error", arguments: [
        (#""\ud83d""#, JSONError.invalidString(offset: 1)),
        (#""\ude00x""#, .invalidString(offset: 1)),
        (#""\ud83d\u0041""#, .invalidString(offset: 1)),
        (#""\x""#, .invalidEscape(offset: 1)),
        (#""\u12g4""#, .invalidEscape(offset: 1)),
        ("\"a\tb\"", .invalidString(offset: 2)),
        (#""abc"#, .unexpectedEnd),
    ])
    func malformedStringsFail(json: String, error: JSONError) {
        #expect(throws: error) { try parse(json) }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8Fails() {
        #expect(throws: JSONError.invalidString(offset: 4)) {
            try JSONParser.parse([UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")])
        }
    }

    @Test("numbers keep their text", arguments: ["0", "-0", "12", "-3.25", "1e2", "1E+2", "2.5e-3", "18446744073709551615"])
    func numbersKeepText(text: String) throws {
        #expect(try parse(text) == .number(text))
    }

    @Test("numbers outside JSON's grammar are refused", arguments: ["01", "-", "1.", ".5", "1e", "1e+", "+1", "-01", "0x10"])
    func badNumbersFail(text: String) {
        #expect(throws: JSONError.self) { try parse(text) }
    }

    @Test("white space around tokens is allowed and trailing bytes are not")
    func whiteSpaceAndTrailingBytes() throws {
        #expect(try parse(" \t\r\n{ \"a\" : [ 1 , true , null ] } \n") == .object(["a": .array([.number("1"), .bool(true), .null])]))
        #expect(throws: JSONError.trailingBytes(offset: 3)) { try parse("{} x") }
        #expect(throws: JSONError.self) { try parse("[1,]") }
        #expect(throws: JSONError.self) { try parse("{\"a\":1,}") }
        #expect(throws: JSONError.self) { try parse("") }
        #expect(throws: JSONError.self) { try parse("tru") }
    }

    @Test("the first of two equal keys wins")
    func firstDuplicateKeyWins() throws {
        #expect(try parse(#"{"a":1,"a":2}"#) == .object(["a": .number("1")]))
    }

    @Test("nesting at the depth limit parses and one level more is refused")
    func nestingLimit() throws {
        let limits = JSONLimits(maxBytes: 1000, maxDepth: 4)
        #expect(try parse("[[[{}]]]", limits: limits) == .array([.array([.array([.object([:])])])]))
        #expect(throws: JSONError.tooDeep(limit: 4)) { try parse("[[[[[]]]]]", limits: limits) }
        #expect(throws: JSONError.tooDeep(limit: 32)) { try parse(String(repeating: "[", count: 100_000)) }
    }

    @Test("a document over the byte limit is refused before parsing")
    func byteLimit() {
        #expect(throws: JSONError.tooLarge(limit: 8)) { try parse("[1,2,3,4,5]", limits: JSONLimits(maxBytes: 8, maxDepth: 4)) }
    }
}
