/// Decides, for one link, when to send a key exchange and which keys result. A pure value:
/// time is passed in (`now` is a `Duration` since any fixed origin), nothing is sent here.
///
/// Two forms share one set of pairing rules (PROTOCOL.md D4): the private key exchange (D3b: a
/// clear hello with only an ephemeral key, then an identity proof sealed under the pair's
/// ephemeral secret), which this node opens with, and the signed key exchange of version 1 (D3,
/// identities in clear), which it answers only for a neighbour that speaks nothing else.
///
/// Pairing rules (D4 shows they converge, in two messages when delays stay below the guard
/// interval and without a loop whatever the delays):
/// - `start`: send an opening unless one was sent within the guard interval.
/// - `receive` of an answer to our latest ephemeral: pair, send nothing.
/// - `receive` of an answer to an older ephemeral of ours: pair with our latest, send nothing
///   (an answer is never answered, so crossed answers cannot ping-pong).
/// - `receive` of an opening while our latest opening is unpaired and within the guard
///   interval (on a lossless link, at any time): the two openings crossed; pair, send nothing.
/// - otherwise (an opening, or anything when we have no ephemeral of the same form): answer
///   with a fresh ephemeral and pair with that.
public struct LinkHandshake: Sendable {
    /// The identity that signs this node's key exchanges and proofs.
    public let identity: NodeIdentity
    /// Timing and rekey limits.
    public var configuration: LinkHandshakeConfiguration
    /// When keys were last derived, nil before the first.
    public private(set) var keyedAt: Duration?
    /// True once the neighbour has keyed this link with the signed key exchange of version 1:
    /// it does not speak the private one, so rekeys use version 1 too.
    public private(set) var peerIsLegacy = false
    private var pending: Pending?
    private var pairing: Pairing?

    /// Our latest ephemeral key and what happened to it.
    private struct Pending: Sendable {
        let key: P256KeyAgreementKey
        let digest: [UInt8]
        let sentAt: Duration
        let legacy: Bool
        var paired: Bool
    }

    /// A private pairing waiting for the neighbour's identity proof.
    private struct Pairing: Sendable {
        let ours: P256PublicKey
        let theirs: P256PublicKey
        let secret: [UInt8]
        let proofReceiveKey: [UInt8]
    }

    /// What `start` asks the link to send.
    public enum Opening: Sendable {
        /// A private hello (frame kind `0x09`).
        case hello(PrivateHello)
        /// A signed key exchange of version 1 (an envelope of kind `0x05`).
        case legacy(KeyExchangeMessage)
    }

    /// Creates the handshake state for a new link.
    public init(identity: NodeIdentity, configuration: LinkHandshakeConfiguration = LinkHandshakeConfiguration()) {
        self.identity = identity
        self.configuration = configuration
    }

    /// On link up (or to rekey): an opening to send, or nil if one is already in flight. A
    /// private hello, unless the neighbour keyed this link with version 1. `timestamp` is
    /// milliseconds since the Unix epoch, carried only by a version 1 message.
    public mutating func start(now: Duration, timestamp: UInt64) throws(CryptoError) -> Opening? {
        if let pending, now - pending.sentAt < configuration.guardInterval { return nil }
        let key = try P256KeyAgreementKey()
        let digest = try KeyExchangeMessage.answerDigest(for: key.publicKey)
        let legacy = peerIsLegacy || !configuration.speaksPrivate
        let opening: Opening
        if legacy {
            opening = .legacy(try KeyExchangeMessage.signed(
                by: identity, ephemeral: key.publicKey, answering: KeyExchangeMessage.opening, timestamp: timestamp))
        } else {
            opening = .hello(try PrivateHello(ephemeralKey: key.publicKey, answering: KeyExchangeMessage.opening))
        }
        pending = Pending(key: key, digest: digest, sentAt: now, legacy: legacy, paired: false)
        return opening
    }

    /// Handles a neighbour's private hello: returns the hello to answer with (if any) and this
    /// node's identity proof for the pairing, to send after it. Keys come with the neighbour's
    /// proof (`receive(proof:now:)`).
    public mutating func receive(
        hello: PrivateHello, now: Duration
    ) throws(CryptoError) -> (reply: PrivateHello?, proof: [UInt8]) {
        guard pending?.key.publicKey.x963 != hello.ephemeralKey.x963 else { throw .reflectedKeyExchange }
        let (ours, answer) = try pair(
            theirs: hello.ephemeralKey, answering: hello.answering, legacy: false, now: now
        ) { (key) throws(CryptoError) in
            .hello(try PrivateHello(
                ephemeralKey: key.publicKey, answering: KeyExchangeMessage.answerDigest(for: hello.ephemeralKey)))
        }
        let secret = try ours.key.sharedSecret(with: hello.ephemeralKey)
        let keys = try IdentityProof.proofKeys(secret: secret, ours: ours.key.publicKey, theirs: hello.ephemeralKey)
        let proof = try IdentityProof.seal(
            identity: identity, ours: ours.key.publicKey, theirs: hello.ephemeralKey, key: keys.send)
        pairing = Pairing(ours: ours.key.publicKey, theirs: hello.ephemeralKey, secret: secret, proofReceiveKey: keys.receive)
        peerIsLegacy = false
        guard case .hello(let reply)? = answer else { return (nil, proof) }
        return (reply, proof)
    }

    /// Handles a neighbour's identity proof for the current private pairing: verifies it and
    /// returns the link keys (PROTOCOL.md D5 with the salt of D3b).
    public mutating func receive(proof: [UInt8], now: Duration) throws(CryptoError) -> LinkKeys {
        guard let pairing else { throw .unexpectedIdentityProof }
        let remote = try IdentityProof.open(proof, ours: pairing.ours, theirs: pairing.theirs, key: pairing.proofReceiveKey)
        guard remote.nodeID != identity.nodeID else { throw .reflectedKeyExchange }
        let keys = try LinkKeys.derive(
            salt: IdentityProof.salt, secret: pairing.secret, localNodeID: identity.nodeID, localEphemeral: pairing.ours,
            remote: (remote.nodeID, pairing.theirs, remote.signingKey, remote.agreementKey))
        self.pairing = nil
        keyedAt = now
        return keys
    }

    /// Handles a neighbour's signed key exchange of version 1: verifies it, then returns the
    /// reply to send (if any) and the link keys from our latest ephemeral and theirs.
    public mutating func receive(
        _ message: KeyExchangeMessage, now: Duration, timestamp: UInt64
    ) throws(CryptoError) -> (reply: KeyExchangeMessage?, keys: LinkKeys) {
        let sender = try message.verify()
        guard sender != identity.nodeID else { throw .reflectedKeyExchange }
        let identity = self.identity
        let (ours, answer) = try pair(
            theirs: message.ephemeralKey, answering: message.answering, legacy: true, now: now
        ) { (key) throws(CryptoError) in
            .legacy(try KeyExchangeMessage.signed(
                by: identity, ephemeral: key.publicKey,
                answering: KeyExchangeMessage.answerDigest(for: message.ephemeralKey), timestamp: timestamp))
        }
        let keys = try LinkKeys.derive(localNodeID: identity.nodeID, localEphemeral: ours.key, remote: message)
        pairing = nil
        peerIsLegacy = true
        keyedAt = now
        guard case .legacy(let reply)? = answer else { return (nil, keys) }
        return (reply, keys)
    }

    /// The link went down: anything in flight may be lost, so the next `start` or `receive`
    /// must not wait for it.
    public mutating func linkDown() {
        pending = nil
        pairing = nil
    }

    /// True when the current keys have carried `messagesSent` messages or are older than the
    /// rekey interval; call `start` to rekey.
    public func needsRekey(messagesSent: UInt64, now: Duration) -> Bool {
        guard let keyedAt else { return false }
        return messagesSent >= configuration.rekeyAfterMessages || now - keyedAt >= configuration.rekeyInterval
    }

    /// Applies the pairing rules to a received ephemeral: returns our ephemeral to pair it with
    /// and, when the rules say answer, the answer `makeAnswer` built for a fresh one. Only an
    /// ephemeral we sent in the same form counts as ours: the neighbour never saw the other.
    private mutating func pair(
        theirs: P256PublicKey, answering: [UInt8], legacy: Bool, now: Duration,
        makeAnswer: (P256KeyAgreementKey) throws(CryptoError) -> Opening
    ) throws(CryptoError) -> (Pending, Opening?) {
        var ours: Pending
        var answer: Opening?
        let isOpening = answering == KeyExchangeMessage.opening
        if let current = pending, current.legacy == legacy, answering == current.digest || !isOpening
            || (!current.paired && (configuration.lossless || now - current.sentAt < configuration.guardInterval))
        {
            // They answered our latest ephemeral, or an older one (answers crossed in flight:
            // never answer an answer), or our opening and theirs crossed.
            ours = current
        } else {
            let key = try P256KeyAgreementKey()
            answer = try makeAnswer(key)
            ours = Pending(
                key: key, digest: try KeyExchangeMessage.answerDigest(for: key.publicKey), sentAt: now, legacy: legacy,
                paired: true)
        }
        ours.paired = true
        pending = ours
        return (ours, answer)
    }
}
