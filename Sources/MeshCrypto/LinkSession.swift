import MeshProtocol
import Synchronization

/// Seals and opens the packets of one neighbour link with its directional keys.
///
/// Packet: message ID (16) ‖ counter UInt64 BE (8) ‖ nonce (12) ‖ ciphertext ‖ tag (16);
/// AAD = "MeshNode link v1" ‖ kind byte ‖ message ID ‖ counter. The plaintext is padded
/// before sealing. Counters start at 1; the receiver drops replays with a sliding window.
public struct LinkSession: Sendable {
    /// The AAD label.
    public static let label = Array("MeshNode link v1".utf8)
    /// Bytes before the AES-GCM box: message ID and counter.
    public static let headerLength = MessageID.byteCount + 8
    /// The smallest valid packet: header, nonce, one padding byte, tag.
    public static let minimumPacketLength = headerLength + AESGCM.nonceByteCount + 1 + AESGCM.tagByteCount
    /// The largest packet accepted.
    public static let maximumPacketLength = headerLength + AESGCM.nonceByteCount + Padding.maxPaddedLength + AESGCM.tagByteCount
    /// Packets accepted under a new key before the previous key's receive state is dropped.
    public static let previousKeyGracePackets = 64

    /// The keys in use.
    public private(set) var keys: LinkKeys
    /// How plaintexts are padded before sealing.
    public var padding: PaddingPolicy
    /// Messages sealed under the current keys (for `LinkHandshake.needsRekey`).
    public private(set) var messagesSent: UInt64 = 0
    /// Outcome counts.
    public private(set) var counters = CryptoCounters()

    private var sendCounter: UInt64 = 0
    /// The send key's AES-GCM context, keyed once.
    private var sealer: GCMKey
    /// Random bytes for the next nonces, drawn `NoncePool.nonces` nonces at a time.
    private let noncePool = NoncePool()
    private var receiver: Receiver
    private var previous: Receiver?
    private var acceptedSinceRekey = 0

    /// The receive side of one key: the key and its replay window.
    private struct Receiver: Sendable {
        let key: GCMKey
        var window: ReplayWindow

        init(key: [UInt8], window: ReplayWindow) {
            self.key = GCMKey(key, encrypts: false)
            self.window = window
        }
    }

    /// Creates a session with fresh counters; `replayWindow` (1...4096 packets) bounds reordering.
    public init(keys: LinkKeys, padding: PaddingPolicy = .buckets, replayWindow: Int = 64) {
        self.keys = keys
        self.padding = padding
        receiver = Receiver(key: keys.receiveKey, window: ReplayWindow(size: replayWindow))
        sealer = GCMKey(keys.sendKey, encrypts: true)
    }

    /// Switches to new keys. If they are for the same neighbour, the old receive key stays
    /// usable until `previousKeyGracePackets` packets have opened under the new one, so
    /// packets sealed before the neighbour switched still open.
    public mutating func rekey(with newKeys: LinkKeys) {
        previous = newKeys.remoteNodeID == keys.remoteNodeID ? receiver : nil
        receiver = Receiver(key: newKeys.receiveKey, window: ReplayWindow(size: receiver.window.size))
        keys = newKeys
        sealer = GCMKey(newKeys.sendKey, encrypts: true)
        sendCounter = 0
        messagesSent = 0
        acceptedSinceRekey = 0
    }

    /// Pads and seals `plaintext` (an encoded envelope) into a link packet.
    public mutating func seal(kind: MessageKind, messageID: MessageID, plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        try seal(kind: kind, messageID: messageID, plaintext: plaintext, nonce: noncePool.next())
    }

    /// Seals with a chosen nonce. Internal: only fixed test vectors may pick the nonce.
    mutating func seal(kind: MessageKind, messageID: MessageID, plaintext: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard sendCounter < UInt64.max else { throw .counterExhausted }
        let padded = try Padding.pad(plaintext, policy: padding)
        let counter = sendCounter + 1
        // The packet is built in one buffer: header, then the box appended in place.
        var packet: [UInt8] = []
        packet.reserveCapacity(Self.headerLength + AESGCM.nonceByteCount + padded.count + AESGCM.tagByteCount)
        packet.append(contentsOf: messageID.bytes)
        for shift in stride(from: 56, through: 0, by: -8) { packet.append(UInt8(truncatingIfNeeded: counter >> UInt64(shift))) }
        try sealer.seal(padded, nonce: nonce, aad: Self.aad(kind: kind, header: packet), appendingTo: &packet)
        sendCounter = counter
        messagesSent += 1
        counters.sealed += 1
        return packet
    }

    /// Opens a link packet received with frame kind `kind`: authenticates, checks the replay
    /// window, strips padding. Every failure is counted in `counters`.
    public mutating func open(kind: MessageKind, packet: [UInt8]) throws(CryptoError) -> (messageID: MessageID, plaintext: [UInt8]) {
        do throws(CryptoError) {
            return try openCounted(kind: kind, packet: packet)
        } catch {
            counters.record(error)
            throw error
        }
    }

    private mutating func openCounted(kind: MessageKind, packet: [UInt8]) throws(CryptoError) -> (messageID: MessageID, plaintext: [UInt8]) {
        guard packet.count >= Self.minimumPacketLength else {
            throw .truncated(field: "link packet", size: packet.count, minimum: Self.minimumPacketLength)
        }
        guard packet.count <= Self.maximumPacketLength else {
            throw .tooLarge(field: "link packet", size: packet.count, limit: Self.maximumPacketLength)
        }
        let header = Array(packet[..<Self.headerLength])
        let counter = header[MessageID.byteCount...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let aad = Self.aad(kind: kind, header: header)
        let padded: [UInt8]
        do throws(CryptoError) {
            padded = try Self.open(packet, aad: aad, counter: counter, with: &receiver)
            acceptedSinceRekey += 1
            if acceptedSinceRekey >= Self.previousKeyGracePackets { previous = nil }
        } catch {
            // A packet sealed before the neighbour switched keys; if the old key does not open
            // it either, report why the current key refused it.
            guard previous != nil, let opened = try? Self.open(packet, aad: aad, counter: counter, with: &previous!) else {
                throw error
            }
            padded = opened
            counters.openedWithPreviousKey += 1
        }
        let plaintext = try Padding.unpad(padded)
        counters.opened += 1
        do throws(WireError) {
            return (try MessageID(bytes: Array(header[..<MessageID.byteCount])), plaintext)
        } catch {
            throw .wire(error)
        }
    }

    /// Opens the box after the packet's header with `receiver`'s key, within its replay window.
    private static func open(_ packet: [UInt8], aad: [UInt8], counter: UInt64, with receiver: inout Receiver) throws(CryptoError) -> [UInt8] {
        guard receiver.window.isFresh(counter) else { throw .replay(counter: counter) }
        let padded = try receiver.key.open(packet, from: headerLength, aad: aad)
        receiver.window.accept(counter)
        return padded
    }

    static func aad(kind: MessageKind, header: [UInt8]) -> [UInt8] {
        var aad: [UInt8] = []
        aad.reserveCapacity(label.count + 1 + header.count)
        aad.append(contentsOf: label)
        aad.append(kind.rawValue)
        aad.append(contentsOf: header)
        return aad
    }
}

/// Fresh random nonces, fetched from `RAND_bytes` several at a time: one call for 16 nonces
/// costs about what one call for a single nonce did (OpenSSL's per-call DRBG overhead, a fork
/// check and a reseed test, dominated a 12-byte draw). Every nonce is still 12 bytes of the CSPRNG,
/// used once; nonces are public (they travel in the packet), so holding the next few in memory
/// reveals nothing that sending them does not.
///
/// A class behind a lock, not a value: copies of a `LinkSession` share one pool, so no two
/// copies can ever hand out the same nonce under the same key.
final class NoncePool: Sendable {
    /// Nonces per `RAND_bytes` call.
    static let nonces = 16
    private let state = Mutex<(bytes: [UInt8], offset: Int)>(([], 0))

    /// The next unused nonce.
    func next() throws(CryptoError) -> [UInt8] {
        try state.withLock { (state) throws(CryptoError) -> [UInt8] in
            if state.offset >= state.bytes.count {
                state.bytes = try SecureRandom.bytes(Self.nonces * AESGCM.nonceByteCount)
                state.offset = 0
            }
            defer { state.offset += AESGCM.nonceByteCount }
            return Array(state.bytes[state.offset..<(state.offset + AESGCM.nonceByteCount)])
        }
    }
}
