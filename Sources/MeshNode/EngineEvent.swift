import Flooding
import MeshLink
import MeshProtocol

/// Something that happened in the engine, for logs, `relayctl watch` and tests.
public enum EngineEvent: Equatable, Sendable {
    /// A chat message was delivered here.
    case delivered(DeliveredMessage)
    /// A link's key exchange completed.
    case linkKeyed(LinkID, neighbour: NodeID)
    /// A neighbour's profile was verified and it joined (not a return within the grace).
    case neighbourJoined(Profile)
    /// A neighbour in its grace came back over a new link.
    case neighbourReturned(NodeID)
    /// A neighbour departed after its grace.
    case neighbourDeparted(NodeID)
    /// A remote node was learned from its join notice.
    case nodeLearned(Profile, hops: UInt8)
    /// A link produced no valid profile within the handshake timeout.
    case handshakeTimedOut(LinkID)
    /// A message was relayed to `count` neighbours.
    case relayed(MessageID, kind: MessageKind, hops: UInt8, count: Int, opaque: Bool)
    /// A received envelope (or frame) was dropped; `source` is where it came in.
    case dropped(MessageID?, kind: MessageKind?, cause: DropCause, source: EnvelopeSource)
    /// A link was refused by the allow or deny list.
    case refused(LinkID, neighbour: NodeID)
    /// The mesh-time estimate was first set or moved a lot.
    case meshClock(MeshClockChange)
    /// A key lookup this node started found the target's verified profile.
    case keyFound(Profile, hops: UInt8)
    /// A key lookup gave up; `droppedMessages` texts that waited for the key were not sent.
    case lookupFailed(NodeID, droppedMessages: Int)
    /// A ready link's peer sent no link acknowledgement in time (an older node): delivery on the
    /// link is not confirmed, and losses on it are covered only by the resend window (PROTOCOL.md D12).
    case linkUnacknowledged(LinkID, neighbour: NodeID)
    /// A link was keyed with the signed key exchange of version 1 (PROTOCOL.md D3b): the
    /// neighbour speaks nothing newer, and both identities went over the air in clear.
    case legacyLink(LinkID, neighbour: NodeID)
    /// A neighbour that speaks only the key exchange of version 1 was refused (`private_only`).
    case legacyRefused(LinkID, neighbour: NodeID)
    /// A message that waited for its destination's key was sent.
    case sentAfterLookup(NodeID, OriginatedMessage)
}

extension EngineEvent {
    /// An envelope or frame that came on `link` was dropped.
    static func dropped(_ id: MessageID?, kind: MessageKind?, cause: DropCause, link: LinkID) -> EngineEvent {
        .dropped(id, kind: kind, cause: cause, source: .link(link))
    }
}
