/// The system clock and the daemon's mesh clock.
extension Doctor {
    static func clock(_ fact: ClockFact, setup: DoctorSetup) -> DoctorFinding {
        let fix = "enable NTP when the node has a network (timedatectl set-ntp true), or set the time: timedatectl set-time"
        if fact.year < setup.earliestPlausibleYear {
            return DoctorFinding(.clock, .fail, "the clock shows \(fact.shown) UTC, before \(setup.earliestPlausibleYear): it is wrong",
                                 fix: fix)
        }
        switch fact.synchronised {
        case true?:
            let error = fact.maxErrorMicroseconds.map { ", max error \(milliseconds($0))" } ?? ""
            return DoctorFinding(.clock, .ok, "\(fact.shown) UTC, synchronised\(error)")
        case false?:
            return DoctorFinding(.clock, .warn, "\(fact.shown) UTC, not synchronised (the kernel has STA_UNSYNC)", fix: fix)
        case nil:
            return DoctorFinding(.clock, .warn, "\(fact.shown) UTC; whether it is synchronised is unknown (adjtimex failed)",
                                 fix: "timedatectl shows whether the clock is synchronised")
        }
    }

    /// How far this node's clock may be from mesh time before the system clock is worth setting:
    /// the freshness rule's default `max_clock_skew`.
    static let meshClockSkewMilliseconds: Int64 = 120_000

    static func meshClock(_ fact: DaemonFact, system: ClockFact) -> DoctorFinding {
        guard case .answered(let status) = fact else {
            return DoctorFinding(.meshClock, .skip, "not checked: the daemon does not answer")
        }
        guard let clock = status.meshClock else {
            return DoctorFinding(.meshClock, .skip, "meshnoded \(status.version) reports no mesh clock in its status")
        }
        let heard = clock.votes == 1 ? "1 neighbour" : "\(clock.votes) neighbours"
        guard clock.synchronised else {
            if system.synchronised == true {
                return DoctorFinding(.meshClock, .ok, "not synchronised (\(heard) heard; two must agree): "
                                         + "it stamps with this clock, which is synchronised")
            }
            return DoctorFinding(.meshClock, .warn,
                                 "not synchronised (\(heard) heard; two must agree): it stamps with this clock, which "
                                     + "nodes two hops away refuse if it is more than 2 min off",
                                 fix: "place the node within reach of two others, or set the clock (timedatectl set-time)")
        }
        let offset = clock.offsetMilliseconds
        let side = offset >= 0 ? "behind" : "ahead of"
        let text = "synchronised with \(heard); this clock is \(duration(offset.magnitude)) \(side) mesh time"
        guard offset.magnitude <= meshClockSkewMilliseconds else {
            return DoctorFinding(.meshClock, .warn, text + " (meshnoded uses mesh time; other programs do not)",
                                 fix: "set the system clock: timedatectl set-time, or enable NTP when there is a network")
        }
        return DoctorFinding(.meshClock, .ok, text)
    }

    /// Milliseconds as `250 ms`, `12.5 s`, `3 min` or `3 d 2 h`.
    static func duration(_ millis: UInt64) -> String {
        switch millis {
        case ..<1_000: return "\(millis) ms"
        case ..<120_000: return "\(millis / 1000).\((millis % 1000) / 100) s"
        case ..<(2 * 3_600_000): return "\(millis / 60_000) min"
        case ..<(2 * 86_400_000): return "\(millis / 3_600_000) h"
        default: return "\(millis / 86_400_000) d \((millis % 86_400_000) / 3_600_000) h"
        }
    }

    /// Microseconds as `12 ms` or `0.3 ms`.
    static func milliseconds(_ micros: Int) -> String {
        micros >= 10_000 ? "\(micros / 1000) ms" : "\(micros / 1000).\((micros % 1000) / 100) ms"
    }
}
