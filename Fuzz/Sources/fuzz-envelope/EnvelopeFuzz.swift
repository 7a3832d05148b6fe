import FuzzSupport
import MeshProtocol

/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_envelope_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: envelopeSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// Decodes the input as an envelope, a profile body and a chat body. Whatever decodes must
/// encode to exactly the input bytes and decode again to the same value; an envelope's payload
/// is decoded as the body its kind carries, with the same checks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    if let envelope = try? Envelope(decoding: bytes) {
        let encoded = envelope.encoded()
        fuzzCheck(encoded == bytes, "envelope re-encodes to other bytes")
        fuzzCheck(envelope.encodedSize == encoded.count, "encodedSize \(envelope.encodedSize) != \(encoded.count)")
        fuzzCheck((try? Envelope(decoding: encoded)) == envelope, "re-encoded envelope decodes differently")
        fuzzCheck(envelope.flags.isSubset(of: .known), "decoded flags outside the known set")
        fuzzCheck(envelope.route.count <= Envelope.maxRouteLength, "route of \(envelope.route.count)")
        _ = envelope.signedBytes
        switch envelope.kind {
        case .profile, .joinNotice: checkProfile(envelope.payload)
        case .message where !envelope.isInnerSealed: checkChatBody(envelope.payload)
        case .keyRequest: checkKeyRequest(envelope.payload)
        case .keyAnswer: checkKeyAnswer(envelope.payload)
        default: break
        }
    }
    checkProfile(bytes)
    checkChatBody(bytes)
    checkKeyRequest(bytes)
    checkKeyAnswer(bytes)
    return 0
}

private func checkKeyRequest(_ bytes: [UInt8]) {
    guard let body = try? KeyRequestBody(decoding: bytes) else { return }
    fuzzCheck(body.encoded() == bytes, "key request re-encodes to other bytes")
    fuzzCheck(bytes.count == KeyRequestBody.length, "key request of \(bytes.count) bytes")
}

private func checkKeyAnswer(_ bytes: [UInt8]) {
    guard let body = try? KeyAnswerBody(decoding: bytes) else { return }
    fuzzCheck(body.encoded() == bytes, "key answer re-encodes to other bytes")
    fuzzCheck(body.profileEnvelope.count <= KeyAnswerBody.maxEnvelopeLength, "embedded envelope too long")
    if let embedded = try? body.profile() {
        fuzzCheck(embedded.origin == body.target && embedded.hops == 0, "embedded profile accepted with wrong origin or hops")
        checkProfile(embedded.payload)
    }
}

private func checkProfile(_ bytes: [UInt8]) {
    guard let profile = try? Profile(decoding: bytes) else { return }
    fuzzCheck(profile.encoded() == bytes, "profile re-encodes to other bytes")
    fuzzCheck((try? Profile(decoding: profile.encoded())) == profile, "re-encoded profile decodes differently")
}

private func checkChatBody(_ bytes: [UInt8]) {
    guard let body = try? ChatBody(decoding: bytes) else { return }
    fuzzCheck(body.encoded() == bytes, "chat body re-encodes to other bytes")
    fuzzCheck((try? ChatBody(decoding: body.encoded())) == body, "re-encoded chat body decodes differently")
}

/// The two envelopes of docs/PROTOCOL.md A1, and one envelope per body kind.
func envelopeSeeds() -> [(name: String, bytes: [UInt8])] {
    let origin = try! NodeID(bytes: (0x10...0x1f).map { UInt8($0) })
    let messageID = try! MessageID(bytes: [UInt8](repeating: 0xa1, count: 16))
    let key65 = [0x04] + [UInt8](repeating: 0x42, count: 64)
    let profile = Profile(nodeID: origin, displayName: "Hallway", icon: "📡", role: .relay,
                          signingKey: key65, agreementKey: key65)
    let chat = ChatBody(signingKey: [0x02] + [UInt8](repeating: 0x33, count: 32),
                        agreementKey: [0x03] + [UInt8](repeating: 0x44, count: 32), text: "hello, mesh")
    func envelope(_ kind: MessageKind, _ payload: [UInt8], signed: Bool) -> [UInt8] {
        Envelope(kind: kind, messageID: messageID, origin: origin, destination: nil, hops: 1, route: [origin],
                 timestamp: 1_700_000_000_000, isInnerSealed: false, payload: payload,
                 signature: signed ? [UInt8](repeating: 0x5e, count: Envelope.signatureLength) : nil).encoded()
    }
    return [
        ("a1-heartbeat", hexBytes("01040000101112131415161718191a1b1c1d1e1fa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a10000019b76daa8000000000001a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1")),
        ("a1-direct-message",
         hexBytes("01020301101112131415161718191a1b1c1d1e1fa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c30000019b76daa80000000004eeeeeeee02a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2")),
        ("profile-envelope", envelope(.profile, profile.encoded(), signed: true)),
        ("chat-envelope", envelope(.message, chat.encoded(), signed: true)),
        ("profile-body", profile.encoded()),
        ("chat-body", chat.encoded()),
        ("key-request-envelope", envelope(.keyRequest, KeyRequestBody(target: origin, tag: 7).encoded(), signed: false)),
        ("key-answer-body", KeyAnswerBody(
            tag: 7, target: origin,
            profileEnvelope: Envelope(kind: .profile, messageID: messageID, origin: origin, route: [origin],
                                      timestamp: 1_700_000_000_000, payload: profile.encoded(),
                                      signature: [UInt8](repeating: 0x5e, count: Envelope.signatureLength)).encoded()).encoded()),
    ]
}
