/// A change of ``MeshClock``'s estimate worth a journal line.
public enum MeshClockChange: Equatable, Sendable {
    /// The first estimate: mesh time is the local clock plus `offset` milliseconds.
    case synchronised(offsetMilliseconds: Int64, votes: Int)
    /// The estimate moved by at least the report step since it was last reported.
    case moved(fromMilliseconds: Int64, toMilliseconds: Int64, votes: Int)
}
