import MeshProtocol

/// Runs one flood: paced, bounded by time, over a ready link, with heartbeats every 5 s so M
/// stays a neighbour in good standing.
struct Flooder {
    /// Heartbeats go out at least this often (the node's departure grace is 30 s).
    static let heartbeatInterval = Duration.seconds(5)

    let link: NeighbourLink
    let options: FloodOptions
    private var factory: EnvelopeFactory
    private(set) var tally = FloodTally()
    private var lastHeartbeat = ContinuousClock.now
    private var replayedOld = false
    /// In `resend` mode: what is left to send again, oldest first.
    private var recorded: ArraySlice<Envelope> = []

    /// Creates a flooder over a link that is ready (or about to be).
    init(link: NeighbourLink, options: FloodOptions) {
        self.link = link
        self.options = options
        factory = EnvelopeFactory(identity: link.identity, seed: options.seed)
        if let from = options.from { recorded = (EnvelopeRecording.read(from: from) ?? [])[...] }
    }

    /// Idles as a correct neighbour for `seconds`: heartbeats only.
    mutating func idle(seconds: Double) {
        let pacer = Pacer(rate: 0, seconds: seconds)
        while pacer.isRunning {
            heartbeatIfDue()
            WallClock.sleep(.milliseconds(50))
        }
    }

    /// Floods for `options.duration` seconds at `options.rate`.
    mutating func run() {
        let pacer = Pacer(rate: options.rate, seconds: options.duration)
        var index = 0
        while pacer.waitForSlot(index) {
            heartbeatIfDue()
            guard link.isReady else {
                tally.waitsForLink += 1
                WallClock.sleep(.milliseconds(10))
                continue
            }
            let progress = pacer.elapsed / pacer.duration
            guard let envelope = nextEnvelope(index: index, progress: progress) else {
                WallClock.sleep(.milliseconds(10))
                continue
            }
            let frames = link.send(envelope, withholdingLast: options.mode == .partial)
            if frames > 0 {
                if let record = options.record, !EnvelopeRecording.append(envelope, to: record) { tally.recordFailures += 1 }
                tally.messages += 1
                tally.frames += frames
                tally.envelopeBytes += envelope.encodedSize
            } else {
                tally.failed += 1
            }
            index += 1
        }
        tally.seconds = Double(pacer.elapsed.components.seconds) + Double(pacer.elapsed.components.attoseconds) / 1e18
    }

    private mutating func heartbeatIfDue() {
        guard ContinuousClock.now - lastHeartbeat >= Self.heartbeatInterval, link.isReady,
            let heartbeat = try? LinkEnvelopes.heartbeat(from: link.identity)
        else { return }
        if link.send(heartbeat) > 0 { tally.heartbeats += 1 }
        lastHeartbeat = ContinuousClock.now
    }

    /// The envelope for slot `index`, `progress` (0...1) into the flood; nil to wait.
    private mutating func nextEnvelope(index: Int, progress: Double) -> Envelope? {
        do {
            switch options.mode {
            case .broadcast:
                return try factory.broadcast(text: options.stamp ? "t=\(WallClock.milliseconds())" : nil)
            case .freshBroadcast:
                tally.identitiesMinted += 1
                return try factory.broadcast(from: .generate())
            case .direct:
                return try factory.direct()
            case .badSignature:
                return try factory.badSignatureBroadcast()
            case .freshJoin:
                tally.identitiesMinted += 1
                return try factory.freshJoinNotice()
            case .replay:
                return try nextReplay(progress: progress)
            case .forgedRoute:
                guard let latest = link.heard.latest else { return nil }
                tally.replayCopies += 1
                return try factory.forgedCopy(of: latest.envelope, index: index, victim: options.victim)
            case .resend:
                guard let next = recorded.popFirst() else { return nil }
                return factory.replayedCopy(of: next)
            case .partial:
                return try factory.direct(payloadSize: EnvelopeFactory.bigDirectPayload)
            case .big:
                return index % 2 == 0
                    ? try factory.direct(payloadSize: EnvelopeFactory.bigDirectPayload)
                    : try factory.broadcast(textLength: ChatBody.maxTextLength)
            }
        } catch {
            return nil
        }
    }

    /// Replay in three phases: copies of the latest heard broadcast for the first 20 %
    /// of the time; cheap direct messages until `options.turnover` are sent (or 90 % of the
    /// time is gone); then the oldest heard broadcast, once.
    private mutating func nextReplay(progress: Double) throws -> Envelope? {
        let heard = link.heard
        if progress < 0.2 {
            guard let latest = heard.latest else { return nil }
            tally.replayCopies += 1
            return factory.replayedCopy(of: latest.envelope)
        }
        if tally.turnoverMessages < options.turnover && progress < 0.9 {
            tally.turnoverMessages += 1
            return try factory.direct()
        }
        guard !replayedOld, let oldest = heard.oldest else { return nil }
        replayedOld = true
        tally.replayedMessageID = oldest.envelope.messageID.hex
        tally.replayedAgeSeconds = WallClock.seconds() - oldest.heardAt
        return factory.replayedCopy(of: oldest.envelope)
    }
}
