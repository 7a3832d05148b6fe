import CTimex
import Doctor
import Glibc

/// Reads the system clock and the kernel's synchronisation state (`adjtimex` with no changes).
enum DoctorClockProbe {
    /// The clock's fact now.
    static func fact() -> ClockFact {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let year = Int(parts.tm_year) + 1900
        let shown = "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        var state = timex()   // modes 0: read only, needs no privilege
        let result = adjtimex(&state)
        guard result >= 0 else { return ClockFact(synchronised: nil, year: year, shown: shown) }
        let synchronised = result != TIME_ERROR && state.status & STA_UNSYNC == 0
        return ClockFact(synchronised: synchronised, maxErrorMicroseconds: Int(state.maxerror), year: year, shown: shown)
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
