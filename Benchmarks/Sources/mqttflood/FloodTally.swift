/// What one flood sent.
struct FloodTally: Sendable {
    /// Publications libmosquitto accepted, by shape.
    var sent: [FloodShape: Int] = [:]
    /// Publications libmosquitto refused (the connection was lost, or out of memory).
    var failed = 0
    /// Times the flood waited for the socket to take what libmosquitto held (the broker's pace).
    var backlogWaits = 0
    /// Seconds from the first publication until the last byte left.
    var seconds = 0.0
    /// libmosquitto's words for the error that ended the flood early, if one did.
    var stoppedBy: String?

    /// Publications sent in all.
    var total: Int { sent.values.reduce(0, +) }
}
