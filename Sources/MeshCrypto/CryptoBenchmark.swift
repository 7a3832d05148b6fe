import MeshProtocol

/// Throughput of the crypto operations, for the `meshbench` executable (release builds only).
public enum CryptoBenchmark {
    /// Runs each operation `iterations` times (at least 1) and returns operations per second,
    /// measured with the monotonic `ContinuousClock`, keyed by: "seal" and "open" (a 256-byte
    /// link packet: padding + AES-256-GCM + replay window), "ecdh" (one P-256 shared secret),
    /// "sign" and "verify" (ECDSA P-256/SHA-256 over 256 bytes), "hkdf" (64 bytes from 32).
    public static func run(iterations: Int) throws(CryptoError) -> [String: Double] {
        let count = max(iterations, 1)
        let local = try NodeIdentity.generate()
        let remote = try NodeIdentity.generate()
        let keys = try linkKeys(local: local, remote: remote)
        let message = [UInt8](repeating: 0x5A, count: 256)
        let id = try benchmarkMessageID()
        var results: [String: Double] = [:]

        var sender = LinkSession(keys: keys.local)
        var packets: [[UInt8]] = []
        packets.reserveCapacity(count)
        results["seal"] = try measure(count) { () throws(CryptoError) in
            packets.append(try sender.seal(kind: .message, messageID: id, plaintext: message))
        }
        var receiver = LinkSession(keys: keys.remote)
        var index = 0
        results["open"] = try measure(count) { () throws(CryptoError) in
            _ = try receiver.open(kind: .message, packet: packets[index])
            index += 1
        }
        let peer = remote.agreementPublicKey
        results["ecdh"] = try measure(count) { () throws(CryptoError) in
            _ = try local.agreementKey.sharedSecret(with: peer)
        }
        var signature: [UInt8] = []
        results["sign"] = try measure(count) { () throws(CryptoError) in
            signature = try local.signingKey.signature(for: message)
        }
        let signer = local.signingPublicKey
        results["verify"] = try measure(count) { () throws(CryptoError) in
            guard signer.isValidSignature(signature, for: message) else { throw .badSignature }
        }
        let secret = [UInt8](repeating: 7, count: 32)
        results["hkdf"] = try measure(count) { () throws(CryptoError) in
            _ = try HKDFSHA256.deriveKey(inputKeyMaterial: secret, salt: LinkKeys.salt, info: message, outputByteCount: 64)
        }
        return results
    }

    private static func measure(_ count: Int, _ body: () throws(CryptoError) -> Void) throws(CryptoError) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { try body() }
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(count) / seconds : 0
    }

    private static func linkKeys(local: NodeIdentity, remote: NodeIdentity) throws(CryptoError) -> (local: LinkKeys, remote: LinkKeys) {
        let localEphemeral = try P256KeyAgreementKey()
        let remoteEphemeral = try P256KeyAgreementKey()
        let fromLocal = try KeyExchangeMessage.signed(
            by: local, ephemeral: localEphemeral.publicKey, answering: KeyExchangeMessage.opening, timestamp: 0)
        let fromRemote = try KeyExchangeMessage.signed(
            by: remote, ephemeral: remoteEphemeral.publicKey, answering: KeyExchangeMessage.opening, timestamp: 0)
        return (
            try LinkKeys.derive(localNodeID: local.nodeID, localEphemeral: localEphemeral, remote: fromRemote),
            try LinkKeys.derive(localNodeID: remote.nodeID, localEphemeral: remoteEphemeral, remote: fromLocal)
        )
    }

    private static func benchmarkMessageID() throws(CryptoError) -> MessageID {
        do throws(WireError) {
            return try MessageID(bytes: [UInt8](repeating: 0x42, count: MessageID.byteCount))
        } catch {
            throw .wire(error)
        }
    }
}
