import FuzzCryptoSupport
import FuzzSupport
import MeshCrypto
import MeshProtocol

/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_keyexchange_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: keyExchangeSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// Input byte 0 picks what the rest is: 0 a key exchange message (decoded, re-encoded, verified,
/// then answered by B's handshake), 1 an envelope for `ProfileVerifier`, 2 a profile body whose
/// keys are checked and whose node ID is derived, 3 a public key in X9.63, compressed or DER form.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = input.byte() % 4
    let rest = input.rest()
    switch mode {
    case 0: checkKeyExchange(rest)
    case 1: checkProfileEnvelope(rest)
    case 2: checkProfileBody(rest)
    default: checkPublicKey(rest)
    }
    return 0
}

private func checkKeyExchange(_ bytes: [UInt8]) {
    guard let message = try? KeyExchangeMessage(decoding: bytes) else { return }
    fuzzCheck(message.encoded() == bytes, "key exchange re-encodes to other bytes")
    fuzzCheck(message.isAnswer == (message.answering != KeyExchangeMessage.opening), "isAnswer disagrees")
    guard let sender = try? message.verify() else { return }
    fuzzCheck(sender == message.senderNodeID, "verify returned another node ID")
    var handshake = LinkHandshake(identity: FixedIdentities.b)
    do throws(CryptoError) {
        let (reply, keys) = try handshake.receive(message, now: .seconds(10), timestamp: 2)
        fuzzCheck(keys.remoteNodeID == sender && keys.localNodeID == FixedIdentities.b.nodeID, "keys name other nodes")
        fuzzCheck(keys.sendKey.count == 32 && keys.receiveKey.count == 32 && keys.sendKey != keys.receiveKey,
                  "link keys are not two distinct 32-byte keys")
        guard let reply else { return fuzzCheck(false, "no answer to a first key exchange") }
        let digest = try KeyExchangeMessage.answerDigest(for: message.ephemeralKey)
        fuzzCheck(reply.answering == digest, "the answer answers another ephemeral")
        fuzzCheck((try? reply.verify()) == FixedIdentities.b.nodeID, "our own answer does not verify")
    } catch {
        fuzzCheck(sender == FixedIdentities.b.nodeID, "a verified key exchange was refused: \(error)")
    }
}

private func checkProfileEnvelope(_ bytes: [UInt8]) {
    guard let envelope = try? Envelope(decoding: bytes), let profile = try? ProfileVerifier.verify(envelope) else {
        return
    }
    fuzzCheck(envelope.origin == profile.nodeID, "verified profile of another origin")
    let derived = try? NodeIdentity.deriveNodeID(signingKey: profile.signingKey, agreementKey: profile.agreementKey)
    fuzzCheck(derived == profile.nodeID, "verified profile whose node ID is not its keys'")
}

private func checkProfileBody(_ bytes: [UInt8]) {
    guard let profile = try? Profile(decoding: bytes) else { return }
    fuzzCheck(profile.encoded() == bytes, "profile re-encodes to other bytes")
    for key in [profile.signingKey, profile.agreementKey] { checkPublicKey(key) }
    fuzzCheck((try? NodeIdentity.deriveNodeID(signingKey: profile.signingKey, agreementKey: profile.agreementKey)) != nil,
              "no node ID for two 65-byte keys")
}

private func checkPublicKey(_ bytes: [UInt8]) {
    let parsed = [try? P256PublicKey(x963: bytes), try? P256PublicKey(compressed: bytes),
                  try? P256PublicKey(derRepresentation: bytes)]
    for case let key? in parsed {
        fuzzCheck(key.x963.count == P256PublicKey.x963ByteCount, "X9.63 form of \(key.x963.count) bytes")
        fuzzCheck((try? P256PublicKey(compressed: key.compressed)) == key, "compressed form does not round-trip")
        fuzzCheck((try? P256PublicKey(x963: key.x963)) == key, "X9.63 form does not round-trip")
    }
}

/// The two key exchange messages of docs/PROTOCOL.md D11, A's signed profile and join notice,
/// A's profile body and public keys.
func keyExchangeSeeds() -> [(name: String, bytes: [UInt8])] {
    let a = FixedIdentities.a
    let profile = a.profile(displayName: "Hallway", icon: "📡", role: .relay).encoded()
    return [
        ("d11-key-exchange-a", [0] + hexBytes("010457e977f6db7e33c3fe7acf2842ed987009caf56d458682fca447b7d3d762ab34c5ab3770ba573bdff5414065640ffb5b346dfa84dec4db4d68e5f59cc471c2ec040217e617f0b6443928278f96999e69a23a4f2c152bdf6d6cdf66e5b80282d4ed194a7debcb97712d2dda3ca85aa8765a56f45fc758599652f2897c65306e579404d65a93977caa3d1b081852ff57a79e465f1660577304baead505dd3a48589cf350185e895372df6221ea3a137557e473fddb6755f05bd507c3c533fce9c9128500000000000000000000000000000000000000000000000000000000000000000000018bcfe56800b359c141eaf3ea7f111f9fb1d75c2dfd9ae98a5861fdf3df7a0fe0faaed9460db40c2fd68dad284e48bdc038590f794a7ea9d059f62296c506b1133b7f707896")),
        ("d11-key-exchange-b", [0] + hexBytes("01040bbbc5e8bc84bd33d1d3ce03ffac9a747f4c1993fddb2ec93a4116a86f022a77c3c17191559a4c2a1aa57e79b8d1977da2c959172f478e341e27028d69fffb7b0451a7580833898ea1b183cbd7350a4099078c6ef1c1e18e970cd7683035f25e7d0110522712b0b5a7cff081685486984a94e6831edac46e7360fa9d834a7a81a1045b36890dacbd7c9a96bb74a1ee28b3d2d75b72e09a20ef25cf8e6fd8a9f0350d0e14bed8d4682a34d83538bdff5b96e89a6666ec0db5745d02fa1210072df75a7db6f13201119cd522e68f5d256544eaa373e066377243a922ff2f90cf4840bc0000018bcfe568321eb952a30a242ec6980bd23f3c647b329f751a0cd14ef0720ab13d846278d2d6b56387304b1f6e378782653bd2d1ed42ba31f4018cf6fd9c9a9802dc7166c628")),
        ("profile-envelope-a", [1] + FixedIdentities.signedProfile(a).encoded()),
        ("join-notice-a", [1] + FixedIdentities.signedProfile(a, kind: .joinNotice).encoded()),
        ("profile-body-a", [2] + profile),
        ("signing-key-x963", [3] + a.signingPublicKey.x963),
        ("agreement-key-compressed", [3] + a.agreementPublicKey.compressed),
    ]
}
