/// The human-readable form of a run's result.
struct MeshScaleReport {
    let result: MeshScaleResult

    init(_ result: MeshScaleResult) { self.result = result }

    /// The result as aligned lines.
    var text: String {
        let r = result
        let rows: [(String, String)] = [
            ("topology", "\(r.topology.rawValue), \(r.nodes) nodes, \(r.links) links, mean degree \(fixed(r.meanDegree, 2)), max \(r.maxDegree)"),
            ("scheduler", r.scheduler.rawValue),
            ("frame loss per link", "\(fixed(r.loss * 100, 1)) %"),
            ("messages", "\(r.broadcasts) broadcasts, \(r.directMessages) direct, \(r.sendFailures) refused"),
            ("delivery within 3 hops", "\(r.deliveries) of \(r.expectedDeliveries) = \(fixed(r.deliveryRatio * 100, 3)) %"),
            ("duplicate deliveries", "\(r.duplicateDeliveries)"),
            ("message frames per delivery", "\(fixed(r.framesPerDelivery, 3)) (\(r.messageFrames) frames)"),
            ("relays per delivery", "\(fixed(r.relaysPerDelivery, 3)) (\(r.envelopesRelayed) relayed)"),
            ("p95 hops / latency", "\(r.p95Hops) hops, \(fixed(r.p95LatencyMs, 1)) ms"),
            ("heartbeat frames /node/min", fixed(r.heartbeatFramesPerNodePerMinute, 2)),
            ("join frames /node/min", "\(fixed(r.joinFramesPerNodePerMinute, 3)) (at start: \(fixed(r.joinFramesPerNodeAtStart, 2)) per node)"),
            ("relay scheduler", "scheduled \(r.relaysScheduled), delayed \(r.relaysDelayed), cancelled \(r.relaysCancelled), "
                + "targets pruned \(r.targetsPruned), overflow \(r.schedulerOverflow)"),
            ("time", "\(fixed(r.virtualSeconds, 1)) s virtual, \(fixed(r.wallSeconds, 2)) s wall (\(r.crypto) crypto)"),
        ]
        return rows.map { $0.0.padding(to: 30) + $0.1 }.joined(separator: "\n")
    }
}

/// `value` with `digits` decimals, without Foundation's formatting.
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled) - whole * Int(scale)
    let sign = value < 0 && scaled > 0 ? "-" : ""
    guard digits > 0 else { return "\(sign)\(whole)" }
    let text = String(fraction)
    return "\(sign)\(whole)." + String(repeating: "0", count: digits - text.count) + text
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
