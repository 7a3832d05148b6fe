import ControlProtocol
import Foundation
import FuzzSupport
import MeshProtocol

/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_control_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: controlSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// Cuts the input /// Cuts the input into JSON lines as the control server does and decodes each as a
/// `ControlRequest` and as a watch event line (which relayctl reads), through `ControlJSON`: the
/// server's path (Foundation's `JSONDecoder` behind the protocol's nesting bound). A line that
/// decodes must also decode with a bare `JSONDecoder` to the same value (the bound only refuses);
/// a line `ControlJSON` refuses that a bare `JSONDecoder` takes must nest deeper than
/// `ControlJSON.maxDepth`. A request or event that decodes must encode with `ControlJSON.line` to
/// one newline-terminated line that decodes to the same value; a `to` that parses as a node ID
/// must print back as the same hex digits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
        if let event = checkAgainstFoundation(ControlEventLine.self, line) { checkRoundTrip(event) }
        guard let request = checkAgainstFoundation(ControlRequest.self, line) else { continue }
        checkRoundTrip(request)
        if let to = request.to, let node = NodeID(hex: to) {
            fuzzCheck(node.hex == to.lowercased(), "node ID \(to) prints as \(node.hex)")
        }
    }
    return 0
}

/// Decodes `line` through `ControlJSON` and through a bare `JSONDecoder`; they must agree except on
/// lines nested past the bound.
private func checkAgainstFoundation<Value: Decodable & Equatable>(_ type: Value.Type, _ line: ArraySlice<UInt8>) -> Value? {
    let bounded = try? ControlJSON.decode(type, from: line)
    let bare = try? JSONDecoder().decode(type, from: Data(line))
    if let bounded {
        fuzzCheck(bounded == bare, "ControlJSON decoded \(bounded), JSONDecoder \(String(describing: bare))")
    } else if bare != nil {
        fuzzCheck(nestingDepth(line) > ControlJSON.maxDepth, "ControlJSON refused a line JSONDecoder took: \(Array(line))")
    }
    return bounded
}

/// Encodes `value` as a line and decodes it back.
private func checkRoundTrip<Value: Codable & Equatable>(_ value: Value) {
    let encoded = ControlJSON.line(value)
    fuzzCheck(encoded.last == UInt8(ascii: "\n") && encoded.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil,
              "\(value) did not encode to one line")
    let again = try? ControlJSON.decode(Value.self, from: encoded.dropLast())
    fuzzCheck(again == value, "\(value) came back as \(String(describing: again))")
}

/// The deepest nesting in `line` by a second, separate count: JSONSerialization's parse of the
/// same bytes, walked (nil when it does not parse: then the depth does not matter).
private func nestingDepth(_ line: ArraySlice<UInt8>) -> Int {
    func depth(_ value: Any) -> Int {
        if let array = value as? [Any] { return 1 + (array.map(depth).max() ?? 0) }
        if let object = value as? [String: Any] { return 1 + (object.values.map(depth).max() ?? 0) }
        return 0
    }
    guard let parsed = try? JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed]) else { return Int.max }
    return depth(parsed)
}

/// One line per command of docs/CONTROL.md, and a few malformed ones.
func controlSeeds() -> [(name: String, bytes: [UInt8])] {
    let lines = [
        "send": #"{"id":1,"command":"send","text":"hello, mesh","to":null}"#,
        "send-direct": #"{"id":"a","command":"send","text":"hi","to":"b2bb79fbd6a5d47840046b61a0413fdf"}"#,
        "peers-stats-status-id-watch": ["peers", "stats", "status", "id", "watch"].enumerated()
            .map { #"{"id":\#($0.offset),"command":"\#($0.element)"}"# }.joined(separator: "\n"),
        "malformed": "{\"command\":5}\n[1,2]\n{\"id\":1.5e300,\"command\":\"peers\"}\n{\"command\":\"send\",\"text\":\"\\ud800\"}",
        "event": #"{"event":{"type":"message","time":1767225600.5,"messageID":"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf","from":"2e0d7fe0175f5b4a799673df1034dab7","hops":2,"text":"hi"}}"#,
    ]
    return lines.sorted { $0.key < $1.key }.map { (name: $0.key, bytes: Array(($0.value + "\n").utf8)) }
}
