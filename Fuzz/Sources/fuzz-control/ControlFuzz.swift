import BoundedJSON
import ControlProtocol
import Foundation
import FuzzSupport
import MeshProtocol

/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_control_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: controlSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// Cuts the input into JSON lines as the control server does and decodes each as a
/// `ControlRequest` (and as a watch event line, which relayctl reads). A request that decodes must
/// encode with `ControlJSON.line` to one newline-terminated line that decodes to the same request;
/// a `to` that parses as a node ID must print back as the same hex digits. On every line that is
/// valid JSON within `ControlJSON.limits`, BoundedJSON (what meshnoded decodes with) must decode
/// the same request as Foundation's `JSONDecoder`, or fail where it fails. (JSONDecoder also takes
/// lines whose ignored fields are not valid JSON, such as `"x":"\ud800"` or `"x":01`; meshnoded
/// refuses those: docs/CONTROL.md.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
        _ = try? ControlJSON.decode(ControlEventLine.self, from: line)
        let request = try? ControlJSON.decode(ControlRequest.self, from: line)
        if (try? JSONParser.parse(line, limits: ControlJSON.limits)) != nil {
            let foundation = try? JSONDecoder().decode(ControlRequest.self, from: Data(line))
            fuzzCheck(request == foundation,
                      "BoundedJSON decoded \(String(describing: request)), JSONDecoder \(String(describing: foundation))")
        }
        guard let request else { continue }
        let encoded = ControlJSON.line(request)
        fuzzCheck(encoded.last == UInt8(ascii: "\n") && encoded.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil,
                  "request did not encode to one line")
        let again = try? ControlJSON.decode(ControlRequest.self, from: encoded.dropLast())
        fuzzCheck(again == request, "request \(request) came back as \(String(describing: again))")
        if let to = request.to, let node = NodeID(hex: to) {
            fuzzCheck(node.hex == to.lowercased(), "node ID \(to) prints as \(node.hex)")
        }
    }
    return 0
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
