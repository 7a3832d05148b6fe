import ControlProtocol
import Testing

/// The bounds `ControlJSON` keeps around Foundation's coders (docs/CONTROL.md), and the rules of
/// JSONDecoder that the protocol's text relies on.
@Suite("control JSON")
struct ControlJSONTests {
    private func request(_ text: String) throws(ControlJSONError) -> ControlRequest {
        try ControlJSON.decode(ControlRequest.self, from: Array(text.utf8))
    }

    private static func nested(_ depth: Int) -> String {
        #"{"command":"id","x":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
    }

    @Test("32 levels of nesting decode and 33 are refused before decoding")
    func nestingBound() throws {
        #expect(try request(Self.nested(32)).command == "id")
        #expect(throws: ControlJSONError.tooDeep(limit: 32)) { try request(Self.nested(33)) }
        #expect(throws: ControlJSONError.tooDeep(limit: 32)) { try request(String(repeating: "[", count: 100_000)) }
    }

    @Test("brackets inside strings, escaped quotes included, do not count as nesting")
    func bracketsInStrings() throws {
        let deepText = String(repeating: "[{", count: 40)
        #expect(try request(#"{"command":"send","text":"\#(deepText)"}"#).text == deepText)
        #expect(try request(#"{"command":"send","text":"\"\#(deepText)\\"}"#).text == "\"" + deepText + "\\")
    }

    @Test("a line longer than the reply bound is refused before decoding")
    func lengthBound() {
        let long = #"{"command":"send","text":""# + String(repeating: "x", count: ControlJSON.maxLineBytes) + #""}"#
        #expect(throws: ControlJSONError.tooLong(limit: 8 << 20)) { try request(long) }
    }

    @Test("of a key given twice the first counts")
    func firstDuplicateKeyWins() throws {
        #expect(try request(#"{"command":"peers","command":"stats"}"#).command == "peers")
    }

    @Test("integral numbers decode as integer IDs and others are refused", arguments: [
        ("1", Int64(1)), ("1.0", 1), ("1e2", 100), ("-0", 0), ("-9223372036854775808", .min),
    ])
    func integralIDs(text: String, id: Int64) throws {
        #expect(try request(#"{"id":\#(text),"command":"id"}"#).id == .number(id))
    }

    @Test("invalid JSON in a field the server reads is refused", arguments: [
        #"{"command":"\ud800"}"#, "{\"command\":\"a\u{1}b\"}", #"{"command":"id","id":01}"#, #"{"command":"send","text":"\x"}"#,
        #"{"command":"id"} x"#, #"{"command":"id" "x":1}"#, #"{"command":"id","x":[1,,]}"#, #"{"command":"id","x":tru}"#,
    ])
    func invalidReadFieldsAreRefused(line: String) {
        #expect(throws: ControlJSONError.self) { try request(line) }
    }

    @Test("invalid contents in fields the server ignores, and one trailing comma, are taken (CONTROL.md)", arguments: [
        #"{"command":"id","x":"\ud800"}"#, #"{"command":"id","x":01}"#, #"{"command":"id","x":[1,]}"#,
        "{\"command\":\"id\",\"x\":\"a\tb\"}", #"{"command":"id",}"#,
    ])
    func ignoredFieldsAreNotChecked(line: String) throws {
        #expect(try request(line).command == "id")
    }

    @Test("replies are compact with sorted keys, `/` and non-ASCII unescaped, control characters escaped")
    func replyForm() {
        #expect(String(decoding: ControlJSON.errorLine(id: .string("a/b"), code: .badRequest, message: "é/😀\u{1b}"), as: UTF8.self)
            == #"{"error":{"code":"bad_request","message":"é/😀\u001b"},"id":"a/b","ok":false}"# + "\n")
        #expect(String(decoding: ControlJSON.line(ControlReply(id: nil, result: WatchReport())), as: UTF8.self)
            == #"{"id":null,"ok":true,"result":{"watching":true}}"# + "\n")
    }
}
