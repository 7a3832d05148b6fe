import MeshLink
import MeshProtocol

/// What an answer says about the challenged link.
public enum UDPAnswerVerdict: UInt8, Sendable {
    /// The answering side has no such link (it closed it, or it restarted): drop it.
    case gone = 0
    /// The answering side still has the link: keep it.
    case stillHere = 1
}
