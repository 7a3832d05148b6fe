/// Decides, for one link, when to send a key exchange and which keys result. A pure value:
/// time is passed in (`now` is a `Duration` since any fixed origin), nothing is sent here.
///
/// Rules (docs/PROTOCOL.md, section D4, shows they converge, in two messages when delays stay
/// below the guard interval and without a loop whatever the delays):
/// - `start`: send an opening message unless one was sent within the guard interval.
/// - `receive` of an answer to our latest ephemeral: derive keys, send nothing.
/// - `receive` of an answer to an older ephemeral of ours: derive keys with our latest, send
///   nothing (an answer is never answered, so crossed answers cannot ping-pong).
/// - `receive` of an opening while our latest opening is unanswered and within the guard
///   interval (on a lossless link, at any time): the two openings crossed; derive keys with
///   it, send nothing.
/// - otherwise (an opening, or anything when we have no ephemeral): answer with a fresh
///   ephemeral and derive keys with that.
public struct LinkHandshake: Sendable {
    /// The identity that signs this node's key exchanges.
    public let identity: NodeIdentity
    /// Timing and rekey limits.
    public var configuration: LinkHandshakeConfiguration
    /// When keys were last derived, nil before the first.
    public private(set) var keyedAt: Duration?
    private var pending: Pending?

    /// Our latest ephemeral key and what happened to it.
    private struct Pending: Sendable {
        let key: P256KeyAgreementKey
        let digest: [UInt8]
        let sentAt: Duration
        var paired: Bool
    }

    /// Creates the handshake state for a new link.
    public init(identity: NodeIdentity, configuration: LinkHandshakeConfiguration = LinkHandshakeConfiguration()) {
        self.identity = identity
        self.configuration = configuration
    }

    /// On link up (or to rekey): an opening message to send, or nil if one is already in flight.
    /// `timestamp` is milliseconds since the Unix epoch, carried in the message.
    public mutating func start(now: Duration, timestamp: UInt64) throws(CryptoError) -> KeyExchangeMessage? {
        if let pending, now - pending.sentAt < configuration.guardInterval { return nil }
        let (message, fresh) = try makeEphemeral(
            answering: KeyExchangeMessage.opening, now: now, timestamp: timestamp, paired: false)
        pending = fresh
        return message
    }

    /// Handles a neighbour's key exchange: verifies it, then returns the reply to send (if any)
    /// and the link keys from our latest ephemeral and theirs.
    public mutating func receive(
        _ message: KeyExchangeMessage, now: Duration, timestamp: UInt64
    ) throws(CryptoError) -> (reply: KeyExchangeMessage?, keys: LinkKeys) {
        let sender = try message.verify()
        guard sender != identity.nodeID else { throw .reflectedKeyExchange }
        var reply: KeyExchangeMessage?
        var ours: Pending
        let isOpening = message.answering == KeyExchangeMessage.opening
        if let current = pending, message.answering == current.digest || !isOpening
            || (!current.paired && (configuration.lossless || now - current.sentAt < configuration.guardInterval))
        {
            // They answered our latest ephemeral, or an older one (answers crossed in flight:
            // never answer an answer), or our opening and theirs crossed.
            ours = current
        } else {
            let (answer, fresh) = try makeEphemeral(
                answering: KeyExchangeMessage.answerDigest(for: message.ephemeralKey), now: now,
                timestamp: timestamp, paired: true)
            reply = answer
            ours = fresh
        }
        let keys = try LinkKeys.derive(localNodeID: identity.nodeID, localEphemeral: ours.key, remote: message)
        ours.paired = true
        pending = ours
        keyedAt = now
        return (reply, keys)
    }

    /// The link went down: anything in flight may be lost, so the next `start` or `receive`
    /// must not wait for it.
    public mutating func linkDown() {
        pending = nil
    }

    /// True when the current keys have carried `messagesSent` messages or are older than the
    /// rekey interval; call `start` to rekey.
    public func needsRekey(messagesSent: UInt64, now: Duration) -> Bool {
        guard let keyedAt else { return false }
        return messagesSent >= configuration.rekeyAfterMessages || now - keyedAt >= configuration.rekeyInterval
    }

    private func makeEphemeral(
        answering: [UInt8], now: Duration, timestamp: UInt64, paired: Bool
    ) throws(CryptoError) -> (KeyExchangeMessage, Pending) {
        let ephemeral = try P256KeyAgreementKey()
        let message = try KeyExchangeMessage.signed(
            by: identity, ephemeral: ephemeral.publicKey, answering: answering, timestamp: timestamp)
        let digest = try KeyExchangeMessage.answerDigest(for: ephemeral.publicKey)
        return (message, Pending(key: ephemeral, digest: digest, sentAt: now, paired: paired))
    }
}
