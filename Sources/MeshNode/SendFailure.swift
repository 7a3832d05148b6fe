import MeshProtocol

/// Why the engine could not originate a message.
public enum SendFailure: Error, Equatable, Sendable {
    /// The text is longer than a chat body allows.
    case textTooLong(Int)
    /// No key is known for the destination (it is not a neighbour and no join notice named it).
    case unknownDestination(NodeID)
    /// The destination is this node.
    case destinationIsSelf
    /// Sealing or signing failed.
    case crypto(String)
    /// No neighbour is ready or in its departure grace: the message would go nowhere.
    case noNeighbours
    /// The key is unknown and no lookup can be started or no more messages can wait for keys.
    case lookupsFull
    /// The key is unknown and the messages waiting for keys reached a cap (count or bytes, target or total).
    case keyWaitFull
}
