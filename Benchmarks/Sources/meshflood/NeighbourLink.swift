import Fragmenter
import MeshCrypto
import MeshLink
import MeshProtocol
import Synchronization
import UDPTransport

/// M's one link to the node under test, built on the library's pieces (UDPTransport for the
/// datagrams, LinkHandshake and LinkSession for keys and seals, FrameSender and Reassembler for
/// frames), not on MeshEngine, so M can send what a correct engine never would.
///
/// The transport's queue runs the receiving side (handshake, profile, heard broadcasts); the
/// flooding thread seals and sends. Both meet in one lock.
final class NeighbourLink: Sendable {
    /// What M knows about its link; guarded by `state`.
    private struct State {
        var link: LinkID?
        var mtu = LinkInfo.frameSizes.lowerBound
        var handshake: LinkHandshake
        var session: LinkSession?
        var reassembler = Reassembler()
        var sender = FrameSender()
        var neighbourReady = false
        var oldestHeard: HeardBroadcast?
        var latestHeard: HeardBroadcast?
        var counters = LinkTally()
    }

    /// M's identity (its node ID is what the node under test sees as the neighbour).
    let identity: NodeIdentity
    private let name: String
    private let transport: UDPTransport
    private let state: Mutex<State>
    private let origin = ContinuousClock.now

    /// Binds M's socket on 127.0.0.1 and aims it at `target`.
    init(identity: NodeIdentity, name: String, target: UDPEndpoint, port: UInt16) throws {
        self.identity = identity
        self.name = name
        transport = try UDPTransport(
            configuration: UDPTransportConfiguration(
                bind: try UDPEndpoint(host: "127.0.0.1", port: port), neighbours: [target],
                mtu: LinkInfo.frameSizes.upperBound, maxLinks: 4))
        // The flooder speaks the signed key exchange of version 1 (PROTOCOL.md D3): a node answers
        // it in version 1, so this also keeps that path under load.
        var handshakeConfiguration = LinkHandshakeConfiguration()
        handshakeConfiguration.speaksPrivate = false
        state = Mutex(State(handshake: LinkHandshake(identity: identity, configuration: handshakeConfiguration)))
    }

    /// Starts linking; events are handled on the transport's queue.
    func start() throws {
        try transport.start { [weak self] event in self?.handle(event) }
    }

    /// Closes the link (the neighbour is told) and stops.
    func stop() { transport.stop() }

    /// True once keys are agreed and the node under test's profile has arrived and verified.
    var isReady: Bool { state.withLock { $0.session != nil && $0.neighbourReady && $0.link != nil } }

    /// The oldest and the latest broadcast heard from other nodes.
    var heard: (oldest: HeardBroadcast?, latest: HeardBroadcast?) {
        state.withLock { ($0.oldestHeard, $0.latestHeard) }
    }

    /// What the link has done so far.
    var tally: LinkTally { state.withLock { $0.counters } }

    /// Frames the transport actually sent.
    var framesSentByTransport: UInt64 { transport.counters().framesSent }

    /// Seals `envelope` for the link and sends its frames (all but the last when
    /// `withholdingLast`, so the transfer never completes); the number of frames sent, 0 when the
    /// link is not keyed or a frame could not be sent.
    @discardableResult
    func send(_ envelope: Envelope, withholdingLast: Bool = false) -> Int {
        let plan: (link: LinkID, frames: [[UInt8]])? = state.withLock { state in
            guard let link = state.link, state.session != nil else { return nil }
            do {
                let packet = try state.session!.seal(
                    kind: envelope.kind, messageID: envelope.messageID, plaintext: envelope.encoded())
                let split = try state.sender.split(packet, kind: envelope.kind.rawValue, mtu: state.mtu, now: now())
                return (link, withholdingLast && split.frames.count > 1 ? Array(split.frames.dropLast()) : split.frames)
            } catch {
                state.counters.sealOrSplitFailures += 1
                return nil
            }
        }
        guard let plan else { return 0 }
        return sendFrames(plan.frames, on: plan.link)
    }

    private func sendFrames(_ frames: [[UInt8]], on link: LinkID) -> Int {
        var sent = 0
        for frame in frames {
            var outcome = transport.send(frame, on: link)
            var retries = 0
            // A full socket buffer: wait a little, a bounded number of times.
            while outcome == .full, retries < 200 {
                WallClock.sleep(.microseconds(50))
                outcome = transport.send(frame, on: link)
                retries += 1
            }
            guard outcome == .sent else {
                state.withLock { $0.counters.framesNotSent += 1 }
                return sent
            }
            sent += 1
        }
        return sent
    }

    private func now() -> Duration { ContinuousClock.now - origin }

    private func handle(_ event: TransportEvent) {
        switch event {
        case .linkUp(let info):
            let opening: (LinkID, KeyExchangeMessage?)? = state.withLock { state in
                guard state.link == nil else { return nil }
                state.link = info.id
                state.mtu = info.mtu
                state.session = nil
                state.neighbourReady = false
                state.reassembler = Reassembler()
                state.handshake.linkDown()
                state.counters.linksUp += 1
                guard case .legacy(let message)? = try? state.handshake.start(now: now(), timestamp: WallClock.milliseconds())
                else { return (info.id, nil) }
                return (info.id, message)
            }
            guard let opening else {
                transport.disconnect(info.id)
                return
            }
            if let message = opening.1 { sendKeyExchange(message, on: opening.0) }
        case .linkDown(let link, _):
            state.withLock { state in
                guard state.link == link else { return }
                state.link = nil
                state.session = nil
                state.neighbourReady = false
                state.handshake.linkDown()
                state.counters.linksDown += 1
            }
        case .mtuChanged(let link, let mtu):
            state.withLock { state in if state.link == link { state.mtu = mtu } }
        case .rssiChanged:
            break
        case .frameReceived(let link, let frame):
            receive(frame, on: link)
        }
    }

    private func sendKeyExchange(_ message: KeyExchangeMessage, on link: LinkID) {
        guard let envelope = try? LinkEnvelopes.keyExchange(message, from: identity) else { return }
        let frames: [[UInt8]]? = state.withLock { state in
            try? state.sender.split(envelope.encoded(), kind: MessageKind.keyExchange.rawValue, mtu: state.mtu, now: now()).frames
        }
        if let frames { _ = sendFrames(frames, on: link) }
    }

    private func receive(_ frame: [UInt8], on link: LinkID) {
        let message: (kind: UInt8, bytes: [UInt8])? = state.withLock { state in
            guard state.link == link else { return nil }
            guard case .complete(let kind, _, let bytes)? = try? state.reassembler.receive(frame, now: now()) else { return nil }
            return (kind, bytes)
        }
        guard let message, let kind = MessageKind(rawValue: message.kind) else { return }
        if kind == .keyExchange {
            receiveKeyExchange(message.bytes, on: link)
        } else {
            receiveSealed(message.bytes, kind: kind, on: link)
        }
    }

    private func receiveKeyExchange(_ bytes: [UInt8], on link: LinkID) {
        guard let envelope = try? Envelope(decoding: bytes), envelope.kind == .keyExchange,
            let message = try? KeyExchangeMessage(decoding: envelope.payload), message.senderNodeID == envelope.origin
        else { return }
        let outcome: (reply: KeyExchangeMessage?, firstKeys: Bool)? = state.withLock { state in
            guard let (reply, keys) = try? state.handshake.receive(message, now: now(), timestamp: WallClock.milliseconds())
            else { return nil }
            let firstKeys = state.session == nil
            if firstKeys {
                state.session = LinkSession(keys: keys)
            } else {
                state.session!.rekey(with: keys)
                state.counters.rekeys += 1
            }
            state.counters.keyExchanges += 1
            return (reply, firstKeys)
        }
        guard let outcome else { return }
        if let reply = outcome.reply { sendKeyExchange(reply, on: link) }
        if outcome.firstKeys, let profile = try? LinkEnvelopes.profile(of: identity, name: name) { send(profile) }
    }

    private func receiveSealed(_ packet: [UInt8], kind: MessageKind, on link: LinkID) {
        let envelope: Envelope? = state.withLock { state in
            guard state.session != nil, let opened = try? state.session!.open(kind: kind, packet: packet) else {
                state.counters.unopened += 1
                return nil
            }
            return try? Envelope(decoding: opened.plaintext)
        }
        guard let envelope else { return }
        var resendProfile = false
        state.withLock { state in
            state.counters.envelopesReceived += 1
            switch envelope.kind {
            case .profile:
                if (try? ProfileVerifier.verify(envelope)) != nil {
                    resendProfile = state.neighbourReady
                    state.neighbourReady = true
                }
            case .message where envelope.isBroadcast && envelope.origin != identity.nodeID:
                let heard = HeardBroadcast(envelope: envelope, heardAt: WallClock.seconds())
                if state.oldestHeard == nil { state.oldestHeard = heard }
                state.latestHeard = heard
                state.counters.broadcastsHeard += 1
            default:
                break
            }
        }
        // The neighbour sends its profile again only while it lacks ours.
        if resendProfile, let profile = try? LinkEnvelopes.profile(of: identity, name: name) { send(profile) }
    }
}
