import MeshProtocol

/// What the `meshbench` executable needs from inside MeshCrypto to measure it (release builds only).
public enum CryptoBenchmark {
    /// Two link sessions keyed to each other by a real key exchange between two fresh
    /// identities: what `local` seals, `remote` opens.
    public static func keyedSessions(padding: PaddingPolicy = .buckets) throws(CryptoError) -> (local: LinkSession, remote: LinkSession) {
        let local = try NodeIdentity.generate()
        let remote = try NodeIdentity.generate()
        let localEphemeral = try P256KeyAgreementKey()
        let remoteEphemeral = try P256KeyAgreementKey()
        let fromLocal = try KeyExchangeMessage.signed(
            by: local, ephemeral: localEphemeral.publicKey, answering: KeyExchangeMessage.opening, timestamp: 0)
        let fromRemote = try KeyExchangeMessage.signed(
            by: remote, ephemeral: remoteEphemeral.publicKey, answering: KeyExchangeMessage.opening, timestamp: 0)
        let localKeys = try LinkKeys.derive(localNodeID: local.nodeID, localEphemeral: localEphemeral, remote: fromRemote)
        let remoteKeys = try LinkKeys.derive(localNodeID: remote.nodeID, localEphemeral: remoteEphemeral, remote: fromLocal)
        return (LinkSession(keys: localKeys, padding: padding), LinkSession(keys: remoteKeys, padding: padding))
    }
}
