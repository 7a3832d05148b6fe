import MeshProtocol

/// What ``DownlinkAdmission`` decided for one message from the broker.
public enum DownlinkVerdict: Equatable, Sendable {
    /// Hand the envelope to the engine, which checks it as one from a radio neighbour.
    case admit(Envelope)
    /// Refuse it, for this cause.
    case drop(DownlinkDropCause)
}
