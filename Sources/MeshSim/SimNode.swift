import Mailbox
import MailboxCourier
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol

/// One simulated node: a real engine with real keys, plus what the simulator observed.
public struct SimNode {
    /// The node's identity (kept across restarts).
    public let identity: NodeIdentity
    /// The engine instance (replaced on restart).
    public internal(set) var engine: MeshEngine
    /// Chat messages delivered to this node, in order.
    public internal(set) var delivered: [DeliveredMessage] = []
    /// When each message in `delivered` was delivered (virtual time), in the same order.
    public internal(set) var deliveredAt: [Duration] = []
    /// Every engine event, in order.
    public internal(set) var events: [EngineEvent] = []
    /// Frames this node put on the air, by kind byte.
    public internal(set) var framesSent: [UInt8: Int] = [:]
    /// Messages (first fragments) this node put on the air, by kind byte.
    public internal(set) var transfersSent: [UInt8: Int] = [:]
    /// This node's links, by link ID.
    var endpoints: [LinkID: SimEndpoint] = [:]
    /// The node's mailbox when it keeps mail (`MeshSimulator.keepMail(at:path:)`), reopened on restart.
    public internal(set) var mailbox: MailboxCourier?
    /// Where the mailbox's database lives.
    var mailboxPath: String?
    /// The mailbox's limits.
    var mailboxLimits = MailboxLimits()

    /// The node's ID.
    public var nodeID: NodeID { identity.nodeID }
}
