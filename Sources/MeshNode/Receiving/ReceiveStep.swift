import Flooding
import MeshLink
import MeshProtocol

/// What one stage of the receive path decided (``MeshEngine/flood(_:from:via:now:)``): the
/// envelope goes on to the next stage with what this one learned, or it stops here.
///
/// A step carries only what its stage learned, never the ``Arrival`` (every stage borrows that
/// one value), and moves from stage to stage: the envelope is not copied from stage to stage.
enum ReceiveStep<Next> {
    /// On to the next stage, with this stage's result.
    case next(Next)
    /// No further: the drop to count and report (``MeshEngine/settle(_:of:)``).
    case stop(ReceiveStop)

    /// Runs `stage` on this step's result; a stop passes through it unchanged.
    @inline(__always)
    consuming func then<Later>(_ stage: (consuming Next) -> ReceiveStep<Later>) -> ReceiveStep<Later> {
        switch consume self {
        case .next(let value): stage(value)
        case .stop(let stop): .stop(stop)
        }
    }
}

/// Why the receive path stopped an envelope, and what that costs in counters.
enum ReceiveStop {
    /// A relay rule refused it: counted per rule, reported as ``DropCause/rule(_:)``.
    case rule(DropReason)
    /// Another stage refused it: reported with `cause`, counted in `counter` when there is one.
    case dropped(DropCause, counter: WritableKeyPath<KindCounters, UInt64>?)
}

/// An envelope entering the receive path: what came, from which neighbour, through which
/// source (a link, or the bridge), and when.
struct Arrival {
    /// The envelope as it came (a bridged one already re-based).
    let envelope: Envelope
    /// The neighbour that handed it over (for the bridge: the publishing gateway).
    let sender: NodeID
    /// The link it came on, or the bridge.
    let source: EnvelopeSource
    /// Engine time of its arrival.
    let now: Duration
}

/// What the admission stage learned of an arrival it let in.
struct Admitted {
    /// False when its neighbour had spent its share: delivered here at most, never relayed.
    let withinShare: Bool
}

/// What the verification stage learned: the admission, and what the signature (or, for what
/// travels opaque, shape) check found.
struct Checked {
    /// False when its neighbour had spent its share (``Admitted/withinShare``).
    let withinShare: Bool
    /// What the check found.
    let verified: Verified
}

/// The relay rules' decision on a checked arrival.
enum Routed {
    /// New here: delivered when `deliver`, relayed as `relay` says.
    case accepted(Checked, deliver: Bool, relay: RelayPlan?)
    /// Seen before, but over a shorter path: relayed again as `relay` says.
    case shorterPath(relay: RelayPlan?)
}

/// What the fan-out stage does with an arrival, as the per-kind handling decided it.
struct FanOut {
    /// The relay to schedule, if any.
    var relay: RelayPlan?
    /// Whether a relay copy goes to the bridge (a gateway's uplink).
    var uplinks: Bool
    /// Whether a relay copy of a join notice is kept for neighbours that join soon.
    var remembersJoin: Bool
    /// Whether the envelope is offered to the mailbox.
    var offersToMailbox: Bool
}
