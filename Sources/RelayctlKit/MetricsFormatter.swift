import ControlProtocol

/// Renders a `stats` result as Prometheus metrics: `relayctl stats --openmetrics` and
/// `relayctl stats --prometheus` (docs/CONTROL.md, "Metrics").
///
/// Built on the decoded `StatsReport` values only; names come from `MetricName`.
public enum MetricsFormatter {
    /// Which text exposition format to write.
    public enum Exposition: Equatable, Sendable {
        /// OpenMetrics 1.0: a counter family is named without `_total`, its sample with it; ends in `# EOF`.
        case openMetrics
        /// The Prometheus text format 0.0.4, which node_exporter's textfile collector reads:
        /// HELP and TYPE name the sample itself (`…_total`); no `# EOF`.
        case prometheus
    }

    /// One metric family: its samples, each with an optional `kind` label.
    struct Family {
        var help: String
        var isGauge: Bool
        var samples: [(kind: String?, value: String)] = []
    }

    /// The whole exposition, families sorted by name, samples by label.
    public static func render(_ report: StatsReport, as exposition: Exposition) -> String {
        var families: [String: Family] = [
            MetricName.prefix + "uptime_seconds": Family(
                help: "Seconds since meshnoded started.", isGauge: true, samples: [(nil, number(report.uptimeSeconds))]),
            MetricName.prefix + "memory_resident_bytes": Family(
                help: "Resident memory of meshnoded in bytes.", isGauge: true,
                samples: [(nil, String(report.memory.residentBytes))]),
            MetricName.prefix + "memory_peak_resident_bytes": Family(
                help: "Peak resident memory of meshnoded in bytes.", isGauge: true,
                samples: [(nil, String(report.memory.peakResidentBytes))]),
        ]
        for (group, counters) in report.counters {
            for (counter, value) in counters {
                let (name, kind) = MetricName.family(group: group, counter: counter)
                let isGauge = MetricName.isGauge(group: group, counter: counter)
                let help = kind == nil
                    ? "The \(isGauge ? "gauge" : "counter") \(MetricName.snakeCase(group)).\(MetricName.snakeCase(counter)) of relayctl stats."
                    : "The counter \(MetricName.snakeCase(counter)) of each envelope kind in relayctl stats."
                families[name, default: Family(help: help, isGauge: isGauge)].samples.append((kind, String(value)))
            }
        }
        var text = ""
        for name in families.keys.sorted() {
            let family = families[name]!
            let sample = family.isGauge ? name : name + "_total"
            let described = exposition == .openMetrics ? name : sample
            text += "# HELP \(described) \(family.help)\n# TYPE \(described) \(family.isGauge ? "gauge" : "counter")\n"
            for (kind, value) in family.samples.sorted(by: { ($0.kind ?? "") < ($1.kind ?? "") }) {
                text += sample + (kind.map { "{kind=\"\($0)\"}" } ?? "") + " " + value + "\n"
            }
        }
        return exposition == .openMetrics ? text + "# EOF\n" : text
    }

    /// A float as both formats spell it (`NaN`, `+Inf`, `-Inf`, or Swift's shortest decimal).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return String(value)
    }
}
