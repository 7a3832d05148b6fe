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
    /// The frame kind of every opaque link packet (PROTOCOL.md D14).
    public static let opaqueFrameKind: UInt8 = 0x0B
    /// The sealed kind of a cover packet (PROTOCOL.md D14): an opaque packet whose body means
    /// nothing, opened, counted and dropped. Never an envelope or frame kind.
    public static let coverKind: UInt8 = 0xFF
    /// The AAD of an opaque link packet.
    public static let opaqueLabel = Array("MeshNode opaque link v1".utf8)
    /// Bytes sealed before an opaque packet's body: counter (8) and kind (1).
    public static let opaqueInnerHeaderLength = 9
    /// The smallest valid opaque packet: nonce, counter, kind, one padding byte, tag.
    public static let opaqueMinimumPacketLength = AESGCM.nonceByteCount + opaqueInnerHeaderLength + 1 + AESGCM.tagByteCount
    /// The largest opaque packet sealed or accepted: the frame layer's largest message.
    public static let opaqueMaximumPacketLength = 65_536
    /// The cap on an opaque packet's padded plaintext (D7's "field limit"): the largest packet
    /// less nonce and tag.
    static let opaquePaddedLimit = opaqueMaximumPacketLength - AESGCM.nonceByteCount - AESGCM.tagByteCount
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
    /// Whether the last packet that opened needed the previous receive key (sealed before the
    /// neighbour switched keys).
    public private(set) var lastOpenUsedPreviousKey = false

    /// The counter of the last packet sealed under the current keys; 0 before the first.
    public var lastSealedCounter: UInt64 { sendCounter }

    /// What this end accepted under the current receive key, as a link acknowledgement states
    /// it (PROTOCOL.md D12): the highest counter, and bit `i` set when counter `highest − 1 − i` was.
    public var acceptedCounters: (highest: UInt64, received: UInt64) { receiver.window.acknowledgement() }
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
        try seal(frameKind: kind.rawValue, messageID: messageID, plaintext: plaintext)
    }

    /// Seals a packet for frame kind byte `frameKind`: a ``MessageKind``'s byte, or a link-level
    /// kind that carries no envelope (the link acknowledgement, `0x08`, PROTOCOL.md D12).
    public mutating func seal(frameKind: UInt8, messageID: MessageID, plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        let pool = noncePool
        return try seal(kind: frameKind, messageID: messageID, plaintext: plaintext) { (nonce) throws(CryptoError) in try pool.write(to: nonce) }
    }

    /// Seals with a chosen nonce. Internal: only fixed test vectors may pick the nonce.
    mutating func seal(kind: MessageKind, messageID: MessageID, plaintext: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        try seal(frameKind: kind.rawValue, messageID: messageID, plaintext: plaintext, nonce: nonce)
    }

    /// Seals with a chosen nonce and a raw frame kind. Internal: only fixed test vectors may pick the nonce.
    mutating func seal(frameKind: UInt8, messageID: MessageID, plaintext: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard nonce.count == AESGCM.nonceByteCount else {
            throw .invalidLength(field: "AES-GCM nonce", expected: AESGCM.nonceByteCount, actual: nonce.count)
        }
        return try seal(kind: frameKind, messageID: messageID, plaintext: plaintext) { target in
            nonce.withUnsafeBufferPointer { source in target.initialize(from: source.baseAddress!, count: source.count) }
        }
    }

    /// Builds the packet in one buffer, nothing copied twice: header, the nonce `writeNonce` puts
    /// in place, the padded plaintext (encrypted where it lies), the tag. The AAD is on the stack.
    private mutating func seal(
        kind: UInt8, messageID: MessageID, plaintext: [UInt8],
        writeNonce: (UnsafeMutablePointer<UInt8>) throws(CryptoError) -> Void
    ) throws(CryptoError) -> [UInt8] {
        guard sendCounter < UInt64.max else { throw .counterExhausted }
        let paddedLength = try Padding.checkedLength(for: plaintext.count, policy: padding)
        let counter = sendCounter + 1
        let box = Self.headerLength
        let length = box + AESGCM.nonceByteCount + paddedLength + AESGCM.tagByteCount
        let sealer = sealer
        let packet = try [UInt8](uninitializedCapacity: length) { (buffer, initialized) throws(CryptoError) in
            let base = buffer.baseAddress!
            messageID.bytes.withUnsafeBufferPointer { id in base.initialize(from: id.baseAddress!, count: MessageID.byteCount) }
            UnsafeMutableRawPointer(base + MessageID.byteCount).storeBytes(of: counter.bigEndian, as: UInt64.self)
            try writeNonce(base + box)
            let body = base + box + AESGCM.nonceByteCount
            plaintext.withUnsafeBufferPointer { text in
                if let source = text.baseAddress { body.initialize(from: source, count: text.count) }
            }
            body[plaintext.count] = 0x80
            (body + plaintext.count + 1).initialize(repeating: 0, count: paddedLength - plaintext.count - 1 + AESGCM.tagByteCount)
            initialized = length
            try Self.withAAD(kind: kind, header: UnsafeBufferPointer(start: base, count: Self.headerLength)) { (aad) throws(CryptoError) in
                try sealer.seal(inPlace: body, count: paddedLength, nonce: base + box, aad: aad)
            }
        }
        sendCounter = counter
        messagesSent += 1
        counters.sealed += 1
        return packet
    }

    /// Pads and seals `plaintext` with kind byte `kind` (a ``MessageKind``'s, or the link
    /// acknowledgement's `0x08`) into an opaque link packet (PROTOCOL.md D14): nothing in clear
    /// but the nonce, and the packet's whole length a padding bucket.
    public mutating func sealOpaque(kind: UInt8, plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        let pool = noncePool
        return try sealOpaque(kind: kind, plaintext: plaintext) { (nonce) throws(CryptoError) in try pool.write(to: nonce) }
    }

    /// `sealOpaque` with a chosen nonce. Internal: only fixed test vectors may pick the nonce.
    mutating func sealOpaque(kind: UInt8, plaintext: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard nonce.count == AESGCM.nonceByteCount else {
            throw .invalidLength(field: "AES-GCM nonce", expected: AESGCM.nonceByteCount, actual: nonce.count)
        }
        return try sealOpaque(kind: kind, plaintext: plaintext) { target in
            nonce.withUnsafeBufferPointer { source in target.initialize(from: source.baseAddress!, count: source.count) }
        }
    }

    /// The length of the opaque packet that carries a `count`-byte body under `policy`: nonce and
    /// tag around the D7 padded length of counter, kind and body, capped so that the packet fits
    /// 65,536 bytes. With buckets: 60, 92, 156, …, 4124, then 28 more than a multiple of 4096.
    public static func opaquePacketLength(for count: Int, policy: PaddingPolicy) -> Int {
        AESGCM.nonceByteCount + AESGCM.tagByteCount
            + Padding.paddedLength(for: opaqueInnerHeaderLength + count, policy: policy, limit: opaquePaddedLimit)
    }

    /// Builds the opaque packet in one buffer: the nonce, then counter ‖ kind ‖ padded body
    /// encrypted where it lies, then the tag.
    private mutating func sealOpaque(
        kind: UInt8, plaintext: [UInt8], writeNonce: (UnsafeMutablePointer<UInt8>) throws(CryptoError) -> Void
    ) throws(CryptoError) -> [UInt8] {
        guard sendCounter < UInt64.max else { throw .counterExhausted }
        let length = Self.opaquePacketLength(for: plaintext.count, policy: padding)
        guard length <= Self.opaqueMaximumPacketLength else {
            throw .tooLarge(field: "opaque link packet", size: length, limit: Self.opaqueMaximumPacketLength)
        }
        let counter = sendCounter + 1
        let sealedLength = length - AESGCM.nonceByteCount - AESGCM.tagByteCount
        let sealer = sealer
        let packet = try [UInt8](uninitializedCapacity: length) { (buffer, initialized) throws(CryptoError) in
            let base = buffer.baseAddress!
            try writeNonce(base)
            try Self.fillOpaque(
                body: base + AESGCM.nonceByteCount, nonce: base, counter: counter, kind: kind, plaintext: plaintext,
                sealedLength: sealedLength, sealer: sealer)
            initialized = length
        }
        sendCounter = counter
        messagesSent += 1
        counters.sealed += 1
        return packet
    }

    /// Writes an opaque packet's inner header, plaintext and padding at `body` and seals them in
    /// place under `nonce` (a function of its own: Swift 6.0.3 could not type-check it as a closure).
    private static func fillOpaque(
        body: UnsafeMutablePointer<UInt8>, nonce: UnsafeMutablePointer<UInt8>, counter: UInt64, kind: UInt8,
        plaintext: [UInt8], sealedLength: Int, sealer: GCMKey
    ) throws(CryptoError) {
        let header = opaqueInnerHeaderLength
        UnsafeMutableRawPointer(body).storeBytes(of: counter.bigEndian, as: UInt64.self)
        body[header - 1] = kind
        plaintext.withUnsafeBufferPointer { text in
            if let source = text.baseAddress { (body + header).initialize(from: source, count: text.count) }
        }
        let end = header + plaintext.count
        body[end] = 0x80
        let zeros: Int = sealedLength - end - 1 + AESGCM.tagByteCount
        (body + end + 1).initialize(repeating: 0, count: zeros)
        try opaqueLabel.withBufferPointer { (aad) throws(CryptoError) in
            try sealer.seal(inPlace: body, count: sealedLength, nonce: nonce, aad: aad)
        }
    }

    /// Opens a link packet received with frame kind `kind`: authenticates, checks the replay
    /// window, strips padding. Every failure is counted in `counters`.
    public mutating func open(kind: MessageKind, packet: [UInt8]) throws(CryptoError) -> (messageID: MessageID, plaintext: [UInt8]) {
        try open(frameKind: kind.rawValue, packet: packet)
    }

    /// Opens a link packet received with frame kind byte `frameKind` (see `seal(frameKind:…)`).
    /// ``lastOpenUsedPreviousKey`` then tells which keys opened it.
    public mutating func open(frameKind: UInt8, packet: [UInt8]) throws(CryptoError) -> (messageID: MessageID, plaintext: [UInt8]) {
        do throws(CryptoError) {
            return try openCounted(kind: frameKind, packet: packet)
        } catch {
            counters.record(error)
            throw error
        }
    }

    private mutating func openCounted(kind: UInt8, packet: [UInt8]) throws(CryptoError) -> (messageID: MessageID, plaintext: [UInt8]) {
        guard packet.count >= Self.minimumPacketLength else {
            throw .truncated(field: "link packet", size: packet.count, minimum: Self.minimumPacketLength)
        }
        guard packet.count <= Self.maximumPacketLength else {
            throw .tooLarge(field: "link packet", size: packet.count, limit: Self.maximumPacketLength)
        }
        let counter = packet.withUnsafeBytes { bytes in
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: MessageID.byteCount, as: UInt64.self))
        }
        // The AAD on the stack, built from the packet's header in place.
        let padded = try packet.withBufferPointer { (bytes) throws(CryptoError) -> [UInt8] in
            try Self.withAAD(kind: kind, header: UnsafeBufferPointer(rebasing: bytes[..<Self.headerLength])) {
                (aad) throws(CryptoError) -> [UInt8] in
                do throws(CryptoError) {
                    let padded = try Self.open(packet, aad: aad, counter: counter, with: &receiver)
                    lastOpenUsedPreviousKey = false
                    acceptedSinceRekey += 1
                    if acceptedSinceRekey >= Self.previousKeyGracePackets { previous = nil }
                    return padded
                } catch {
                    // A packet sealed before the neighbour switched keys; if the old key does not
                    // open it either, report why the current key refused it.
                    guard previous != nil, let opened = try? Self.open(packet, aad: aad, counter: counter, with: &previous!) else {
                        throw error
                    }
                    counters.openedWithPreviousKey += 1
                    lastOpenUsedPreviousKey = true
                    return opened
                }
            }
        }
        let plaintext = try Padding.unpad(padded)
        counters.opened += 1
        do throws(WireError) {
            return (try MessageID(bytes: Array(packet[..<MessageID.byteCount])), plaintext)
        } catch {
            throw .wire(error)
        }
    }

    /// Opens an opaque link packet (PROTOCOL.md D14): authenticates, checks the sealed counter
    /// against the replay window, strips padding, and returns the sealed kind byte and body.
    /// Every failure is counted in `counters`.
    public mutating func openOpaque(packet: [UInt8]) throws(CryptoError) -> (kind: UInt8, plaintext: [UInt8]) {
        do throws(CryptoError) {
            return try openOpaqueCounted(packet)
        } catch {
            counters.record(error)
            throw error
        }
    }

    private mutating func openOpaqueCounted(_ packet: [UInt8]) throws(CryptoError) -> (kind: UInt8, plaintext: [UInt8]) {
        guard packet.count >= Self.opaqueMinimumPacketLength else {
            throw .truncated(field: "opaque link packet", size: packet.count, minimum: Self.opaqueMinimumPacketLength)
        }
        guard packet.count <= Self.opaqueMaximumPacketLength else {
            throw .tooLarge(field: "opaque link packet", size: packet.count, limit: Self.opaqueMaximumPacketLength)
        }
        let padded = try Self.opaqueLabel.withBufferPointer { (aad) throws(CryptoError) -> [UInt8] in
            do throws(CryptoError) {
                let padded = try Self.openOpaque(packet, aad: aad, with: &receiver)
                lastOpenUsedPreviousKey = false
                acceptedSinceRekey += 1
                if acceptedSinceRekey >= Self.previousKeyGracePackets { previous = nil }
                return padded
            } catch {
                guard previous != nil, let opened = try? Self.openOpaque(packet, aad: aad, with: &previous!) else {
                    throw error
                }
                counters.openedWithPreviousKey += 1
                lastOpenUsedPreviousKey = true
                return opened
            }
        }
        var inner = try Padding.unpad(padded)
        // The marker must follow the counter and the kind.
        guard inner.count >= Self.opaqueInnerHeaderLength else { throw .badPadding }
        let kind = inner[Self.opaqueInnerHeaderLength - 1]
        inner.removeFirst(Self.opaqueInnerHeaderLength)
        counters.opened += 1
        return (kind, inner)
    }

    /// Opens a whole opaque packet with `receiver`'s key; the counter sealed inside must then be
    /// fresh in its replay window.
    private static func openOpaque(_ packet: [UInt8], aad: UnsafeBufferPointer<UInt8>, with receiver: inout Receiver) throws(CryptoError) -> [UInt8] {
        let padded = try receiver.key.open(packet, from: 0, aad: aad)
        let counter = padded.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard receiver.window.isFresh(counter) else { throw .replay(counter: counter) }
        receiver.window.accept(counter)
        return padded
    }

    /// Opens the box after the packet's header with `receiver`'s key, within its replay window.
    private static func open(_ packet: [UInt8], aad: UnsafeBufferPointer<UInt8>, counter: UInt64, with receiver: inout Receiver) throws(CryptoError) -> [UInt8] {
        guard receiver.window.isFresh(counter) else { throw .replay(counter: counter) }
        let padded = try receiver.key.open(packet, from: headerLength, aad: aad)
        receiver.window.accept(counter)
        return padded
    }

    /// Calls `body` with the AAD (label ‖ kind ‖ header) in a stack buffer.
    static func withAAD<R, E: Error>(
        kind: UInt8, header: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        let count = label.count + 1 + header.count
        return try withTemporaryBytes(capacity: count) { (aad) throws(E) -> R in
            let base = aad.baseAddress!
            label.withUnsafeBufferPointer { label in base.initialize(from: label.baseAddress!, count: label.count) }
            base[label.count] = kind
            (base + label.count + 1).initialize(from: header.baseAddress!, count: header.count)
            return try body(UnsafeBufferPointer(start: base, count: count))
        }
    }
}

/// Fresh random nonces, fetched from `RAND_bytes` several at a time: one call for 64 nonces
/// (768 bytes) costs about what one call for a single nonce did (OpenSSL's per-call DRBG overhead, a fork
/// check and a reseed test, dominated a 12-byte draw). Every nonce is still 12 bytes of the CSPRNG,
/// used once; nonces are public (they travel in the packet), so holding the next few in memory
/// reveals nothing that sending them does not.
///
/// A class behind a lock, not a value: copies of a `LinkSession` share one pool, so no two
/// copies can ever hand out the same nonce under the same key.
final class NoncePool: Sendable {
    /// Nonces per `RAND_bytes` call.
    static let nonces = 64
    private let state = Mutex<(bytes: [UInt8], offset: Int)>(([], 0))

    /// Writes the next unused nonce (12 bytes) at `target`.
    func write(to target: UnsafeMutablePointer<UInt8>) throws(CryptoError) {
        try state.withLock { (state) throws(CryptoError) in
            if state.offset >= state.bytes.count {
                state.bytes = try SecureRandom.bytes(Self.nonces * AESGCM.nonceByteCount)
                state.offset = 0
            }
            let offset = state.offset
            state.bytes.withUnsafeBufferPointer { bytes in target.initialize(from: bytes.baseAddress! + offset, count: AESGCM.nonceByteCount) }
            state.offset += AESGCM.nonceByteCount
        }
    }

    /// The next unused nonce.
    func next() throws(CryptoError) -> [UInt8] {
        try [UInt8](uninitializedCapacity: AESGCM.nonceByteCount) { (buffer, initialized) throws(CryptoError) in
            try write(to: buffer.baseAddress!)
            initialized = AESGCM.nonceByteCount
        }
    }
}
