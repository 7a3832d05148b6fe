import ControlProtocol
import Foundation
import MeshProtocol
import Testing

/// The watch stream's bytes, one line per event type, pinned here and against docs/CONTROL.md.
@Suite("watch events on the wire")
struct WatchEventWireTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let origin = NodeID(hex: "2e0d7fe0175f5b4a799673df1034dab7")!

    static let pinned: [(WatchEvent, String)] = [
        (.message(id: MessageID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!, from: origin, to: nil, hops: 2, text: "hi", time: 1767225600.5),
         #"{"event":{"from":"2e0d7fe0175f5b4a799673df1034dab7","hops":2,"messageID":"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf","text":"hi","time":1767225600.5,"type":"message"}}"#),
        (.message(id: MessageID(hex: "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf")!, from: origin, to: NodeID(hex: "00112233445566778899aabbccddeeff")!,
                  hops: 0, text: "a/b \"q\" é\u{1}", time: 1),
         #"{"event":{"from":"2e0d7fe0175f5b4a799673df1034dab7","hops":0,"messageID":"b0b1b2b3b4b5b6b7b8b9babbbcbdbebf","text":"a/b \"q\" é\u0001","time":1,"to":"00112233445566778899aabbccddeeff","type":"message"}}"#),
        (.neighbourJoined(node: origin, name: "Kitchen", time: 1767225601),
         #"{"event":{"name":"Kitchen","nodeID":"2e0d7fe0175f5b4a799673df1034dab7","time":1767225601,"type":"peer_joined"}}"#),
        (.neighbourLeft(node: origin, name: nil, reason: "departed", time: 1767225690.25),
         #"{"event":{"nodeID":"2e0d7fe0175f5b4a799673df1034dab7","reason":"departed","time":1767225690.25,"type":"peer_left"}}"#),
        (.linkUp(link: 4, role: "central", address: "127.0.0.1:7002", transport: "udp", time: 1767225600.125),
         #"{"event":{"address":"127.0.0.1:7002","linkID":4,"role":"central","time":1767225600.125,"transport":"udp","type":"link_up"}}"#),
        (.linkDown(link: 4, reason: "silent for 4s", transport: "udp", time: 1767225689),
         #"{"event":{"linkID":4,"reason":"silent for 4s","time":1767225689,"transport":"udp","type":"link_down"}}"#),
        // An older daemon's, without the transport.
        (.linkDown(link: 4, reason: "closed", time: 1767225690),
         #"{"event":{"linkID":4,"reason":"closed","time":1767225690,"type":"link_down"}}"#),
    ]

    @Test("each event type encodes to the pinned bytes and decodes back", arguments: pinned)
    func pinnedBytes(event: WatchEvent, line: String) throws {
        #expect(ControlJSON.line(ControlEventLine(event: event)) == Array((line + "\n").utf8))
        #expect(try ControlJSON.decode(ControlEventLine.self, from: Array(line.utf8)).event == event)
    }

    @Test("every event type this version knows is pinned")
    func everyTypePinned() {
        #expect(Set(Self.pinned.map(\.0.type)) == Set(WatchEventType.allCases.map(\.rawValue)))
    }

    /// The indented `{"event":...}` lines of CONTROL.md's "Watching" section.
    static func documentedLines() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/CONTROL.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### Watching").dropFirst().first)
        return section.components(separatedBy: "\n").filter { $0.hasPrefix("    {\"event\":") }
            .map { String($0.dropFirst(4)) }
    }

    @Test("CONTROL.md's example lines are what the node writes, one per event type")
    func documentedLinesAreExact() throws {
        let lines = try Self.documentedLines()
        var types: Set<String> = []
        for line in lines {
            let event = try ControlJSON.decode(ControlEventLine.self, from: Array(line.utf8)).event
            #expect(ControlJSON.line(ControlEventLine(event: event)) == Array((line + "\n").utf8), "\(line)")
            types.insert(event.type)
        }
        #expect(types == Set(WatchEventType.allCases.map(\.rawValue)))
    }

    @Test("an event type this version does not know decodes by its type and time")
    func unknownType() throws {
        let line = #"{"event":{"time":5,"type":"bridge_up","broker":"x"}}"#
        #expect(try ControlJSON.decode(ControlEventLine.self, from: Array(line.utf8)).event == .unknown(type: "bridge_up", time: 5))
    }

    @Test("a known type without its fields, or with an ID that is not hex, does not decode", arguments: [
        #"{"event":{"time":5,"type":"link_down","linkID":4}}"#,
        #"{"event":{"time":5,"type":"peer_joined","nodeID":"xyz"}}"#,
        #"{"event":{"type":"link_up","linkID":4,"role":"central","address":"a"}}"#,
    ])
    func incompleteKnownType(line: String) {
        #expect(throws: ControlJSONError.self) { try ControlJSON.decode(ControlEventLine.self, from: Array(line.utf8)) }
    }
}
