import FuzzCryptoSupport
import FuzzSupport
import MeshCrypto
import MeshProtocol

/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_linkopen_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: linkOpenSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// A and B's sessions, keyed once per process; each input starts from fresh copies.
let sessions = FixedIdentities.sessionPair()

/// Input byte 0 picks the mode, byte 1 the frame kind (its top bit: the opaque form of
/// PROTOCOL.md D14, the kind sealed inside). 0: the rest is a packet B opens.
/// 1: A seals the rest (after a 16-byte message ID) and B must open it once, then refuse the replay.
/// 2: like 1, but the packet is changed at a 2-byte position (xor byte, or truncated) and B must refuse it.
/// 3: A seals up to 8 packets and B opens them in an order from the input: each exactly once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.byte() % 4
    let kindByte = input.byte()
    let form = Form(opaque: (kindByte & 0x80) != 0, kind: MessageKind(rawValue: (kindByte & 0x7F) % 5 + 1) ?? .message)
    var a = sessions.a
    var b = sessions.b
    switch mode {
    case 0:
        let packet = input.rest()
        fuzzCheck(form.open(&b, packet) == nil, "B opened a packet A never sealed")
        fuzzCheck(b.counters.opened == 0, "opened counter moved for a refused packet")
    case 1, 2:
        let tamper = mode == 2 ? (position: Int(input.byte()) << 8 | Int(input.byte()), xor: input.byte()) : nil
        let idBytes = input.take(16)
        let plaintext = input.rest()
        guard let id = try? MessageID(bytes: idBytes + [UInt8](repeating: 0, count: 16 - idBytes.count)),
              var packet = form.seal(&a, id, plaintext) else { return 0 }
        fuzzCheck(form.opaque
                  ? packet.count >= LinkSession.opaqueMinimumPacketLength && packet.count <= LinkSession.opaqueMaximumPacketLength
                  : packet.count >= LinkSession.minimumPacketLength && packet.count <= LinkSession.maximumPacketLength,
                  "sealed packet of \(packet.count) bytes")
        if let tamper {
            let position = tamper.position % packet.count
            if tamper.xor == 0 { packet.removeLast(packet.count - position) } else { packet[position] ^= tamper.xor }
            fuzzCheck(form.open(&b, packet) == nil, "B opened a changed packet")
        } else {
            let opened = form.open(&b, packet)
            fuzzCheck(opened != nil && (form.opaque || opened?.messageID == id), "B did not open A's packet with its message ID")
            fuzzCheck(opened?.plaintext == plaintext, "plaintext changed on the way")
            fuzzCheck(form.open(&b, packet) == nil, "B opened a replayed packet")
        }
    default:
        checkOrder(&input, form: form, a: &a, b: &b)
    }
    return 0
}

/// Which form of link packet an input exercises: today's (D6) or opaque (D14), and the kind.
struct Form {
    let opaque: Bool
    let kind: MessageKind

    func seal(_ session: inout LinkSession, _ id: MessageID, _ plaintext: [UInt8]) -> [UInt8]? {
        opaque ? try? session.sealOpaque(kind: kind.rawValue, plaintext: plaintext)
            : try? session.seal(kind: kind, messageID: id, plaintext: plaintext)
    }

    /// What B opened: the message ID (nil for an opaque packet) and the plaintext; nil if refused.
    /// An opaque packet must come back with the kind it was sealed with.
    func open(_ session: inout LinkSession, _ packet: [UInt8]) -> (messageID: MessageID?, plaintext: [UInt8])? {
        if opaque {
            guard let opened = try? session.openOpaque(packet: packet) else { return nil }
            fuzzCheck(opened.kind == kind.rawValue, "opaque packet opened with kind \(opened.kind)")
            return (nil, opened.plaintext)
        }
        guard let opened = try? session.open(kind: kind, packet: packet) else { return nil }
        return (opened.messageID, opened.plaintext)
    }
}

private func checkOrder(_ input: inout FuzzInput, form: Form, a: inout LinkSession, b: inout LinkSession) {
    let count = 1 + Int(input.byte() % 8)
    let id = try! MessageID(bytes: [UInt8](repeating: 0x5a, count: 16))
    var packets: [[UInt8]] = []
    for index in 0..<count {
        guard let packet = form.seal(&a, id, [UInt8(index)]) else {
            return fuzzCheck(false, "A could not seal a 1-byte message")
        }
        packets.append(packet)
    }
    var opened = Set<Int>()
    while !input.isAtEnd {
        let index = Int(input.byte()) % count
        let result = form.open(&b, packets[index])
        fuzzCheck((result != nil) == !opened.contains(index), "packet \(index) opened \(result == nil ? "never" : "twice")")
        fuzzCheck(result == nil || result?.plaintext == [UInt8(index)], "packet \(index) opened to other bytes")
        opened.insert(index)
    }
}

/// The link packet of docs/PROTOCOL.md D11 (refused: other keys), and one input per other mode.
func linkOpenSeeds() -> [(name: String, bytes: [UInt8])] {
    let envelope = FixedIdentities.signedProfile(FixedIdentities.a).encoded()
    let id = [UInt8](repeating: 0xa1, count: 16)
    return [
        ("d11-link-packet", [0, 1] + hexBytes("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf0000000000000001000102030405060708090a0b321169e822b29522840e425d76bfc76a9d8a56e5d625237757e65f73165b67d2c4f9391c6cafc2e97c89ffdec6919206")),
        ("seal-open-profile", [1, 0] + id + envelope),
        ("seal-tamper-header", [2, 1, 0, 3, 0x40] + id + Array("hello".utf8)),
        ("seal-truncate", [2, 1, 0, 40, 0] + id + Array("hello".utf8)),
        ("order-replays", [3, 1, 7, 0, 1, 2, 2, 6, 5, 0, 4, 3]),
        ("d14-opaque-packet", [0, 0x81] + hexBytes("000102030405060708090a0b5a7405844d92f846f50ea7311ad0e707f8f93e65d625237757e65f73165b67d21e22d4a43a6fb7e33948dd048ea51355")),
        ("opaque-seal-open-profile", [1, 0x80] + id + envelope),
        ("opaque-order-replays", [3, 0x81, 7, 0, 1, 2, 2, 6, 5, 0, 4, 3]),
    ]
}
