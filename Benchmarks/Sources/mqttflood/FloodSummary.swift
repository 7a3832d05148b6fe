import FoundationEssentials

/// The end-of-run report: one JSON object (`--json`, FoundationEssentials' encoder) or a line for people.
struct FloodSummary: Encodable {
    let host: String
    let port: Int32
    let targetRate: Double
    let durationS: Double
    let prepareS: Double
    let elapsedS: Double
    let sent: Int
    let rate: Double
    let sentByShape: [String: Int]
    let failed: Int
    let backlogWaits: Int
    let stoppedBy: String?

    /// Sums up one flood; `prepareSeconds` is the time spent building and signing before it.
    init(options: MQTTFloodOptions, tally: FloodTally, prepareSeconds: Duration) {
        host = options.host
        port = options.port
        targetRate = options.rate
        durationS = options.duration
        prepareS = Double(prepareSeconds.components.seconds) + Double(prepareSeconds.components.attoseconds) / 1e18
        elapsedS = tally.seconds
        sent = tally.total
        rate = tally.seconds > 0 ? Double(tally.total) / tally.seconds : 0
        sentByShape = Dictionary(uniqueKeysWithValues: tally.sent.map { ($0.key.rawValue, $0.value) })
        failed = tally.failed
        backlogWaits = tally.backlogWaits
        stoppedBy = tally.stoppedBy
    }

    /// The summary as one JSON object on one line (keys in snake case, sorted).
    var json: String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// One line for people.
    var text: String {
        let shapes = sentByShape.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "mqttflood → \(host):\(port): \(sent) messages in \((elapsedS * 100).rounded() / 100) s, \(Int(rate))/s "
            + "(target \(Int(targetRate))/s; \(shapes); failed \(failed), waits for the socket \(backlogWaits)"
            + (stoppedBy.map { "; stopped: \($0)" } ?? "") + ")"
    }
}
