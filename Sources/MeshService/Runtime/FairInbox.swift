import MeshLink

/// The bounded way into the engine: transport events wait here, one queue per link, and are
/// taken in turns, one link after the other, so a link that floods the node delays only itself.
///
/// A pure value (the runtime guards it with a lock). Frames beyond a link's share or the total
/// are shed and counted; link, MTU and signal events are never shed (there are at most as many
/// as links come and go), so nothing already accepted about a link's life is lost.
public struct FairInbox: Sendable {
    /// How much waits at most.
    public struct Limits: Equatable, Sendable {
        /// Frames waiting from one link.
        public var framesPerLink: Int
        /// Frames waiting from all links together.
        public var totalFrames: Int

        /// Creates limits; the defaults hold about a second of a busy BLE link per link.
        public init(framesPerLink: Int = 256, totalFrames: Int = 4096) {
            self.framesPerLink = max(1, framesPerLink)
            self.totalFrames = max(1, totalFrames)
        }
    }

    /// What the inbox has seen.
    public struct Counters: Equatable, Sendable {
        /// Events taken in.
        public var accepted: UInt64 = 0
        /// Frames shed because their link had its share waiting.
        public var shedPerLink: UInt64 = 0
        /// Frames shed because the inbox as a whole was full.
        public var shedTotal: UInt64 = 0
    }

    /// The limits in force.
    public let limits: Limits
    /// What was accepted and shed.
    public private(set) var counters = Counters()
    /// Frames waiting now.
    public private(set) var waitingFrames = 0
    /// Events waiting now: frames and link events.
    public private(set) var waitingEvents = 0
    private var queues: [LinkID: [TransportEvent]] = [:]
    private var heads: [LinkID: Int] = [:]
    private var turn: [LinkID] = []
    private var framesWaiting: [LinkID: Int] = [:]

    /// Creates an empty inbox.
    public init(limits: Limits = Limits()) { self.limits = limits }

    /// True when nothing waits.
    public var isEmpty: Bool { turn.isEmpty }

    /// Takes an event in; false when it was a frame and was shed.
    @discardableResult
    public mutating func push(_ event: TransportEvent) -> Bool {
        let link = Self.link(of: event)
        if case .frameReceived = event {
            guard framesWaiting[link, default: 0] < limits.framesPerLink else {
                counters.shedPerLink += 1
                return false
            }
            guard waitingFrames < limits.totalFrames else {
                counters.shedTotal += 1
                return false
            }
            framesWaiting[link, default: 0] += 1
            waitingFrames += 1
        }
        if queues[link] == nil {
            queues[link] = []
            heads[link] = 0
            turn.append(link)
        }
        queues[link]?.append(event)
        waitingEvents += 1
        counters.accepted += 1
        return true
    }

    /// Takes the next event, one link after the other (round robin); nil when empty.
    public mutating func next() -> TransportEvent? {
        guard !turn.isEmpty else { return nil }
        let link = turn.removeFirst()
        guard var queue = queues[link], var head = heads[link], head < queue.count else { return nil }
        let event = queue[head]
        head += 1
        waitingEvents -= 1
        if case .frameReceived = event {
            framesWaiting[link, default: 1] -= 1
            waitingFrames -= 1
        }
        if head == queue.count {
            queues[link] = nil
            heads[link] = nil
            framesWaiting[link] = nil
        } else {
            if head >= 64, head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            queues[link] = queue
            heads[link] = head
            turn.append(link)
        }
        return event
    }

    private static func link(of event: TransportEvent) -> LinkID {
        switch event {
        case .linkUp(let info): info.id
        case .linkDown(let link, _), .mtuChanged(let link, _), .rssiChanged(let link, _), .frameReceived(let link, _): link
        }
    }
}
