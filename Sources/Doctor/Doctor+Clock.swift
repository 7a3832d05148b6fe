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

    static func meshClock(_ fact: DaemonFact) -> DoctorFinding {
        guard case .answered(let status) = fact else {
            return DoctorFinding(.meshClock, .skip, "not checked: the daemon does not answer")
        }
        guard !status.clockFields.isEmpty else {
            return DoctorFinding(.meshClock, .skip, "meshnoded \(status.version) reports no mesh clock in its status")
        }
        let text = status.clockFields.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
        return DoctorFinding(.meshClock, .ok, text)
    }

    /// Microseconds as `12 ms` or `0.3 ms`.
    static func milliseconds(_ micros: Int) -> String {
        micros >= 10_000 ? "\(micros / 1000) ms" : "\(micros / 1000).\((micros % 1000) / 100) ms"
    }
}
