/// The system clock as the kernel reports it (`adjtimex`) and the calendar year it shows.
public struct ClockFact: Equatable, Sendable {
    /// Whether the kernel considers the clock synchronised (STA_UNSYNC clear and not TIME_ERROR);
    /// nil when adjtimex failed.
    public var synchronised: Bool?
    /// The kernel's maximum error estimate in microseconds, when known.
    public var maxErrorMicroseconds: Int?
    /// The UTC year the clock shows.
    public var year: Int
    /// The UTC time shown, `2026-12-03 07:45:12`, for the report.
    public var shown: String

    /// Creates the fact.
    public init(synchronised: Bool?, maxErrorMicroseconds: Int? = nil, year: Int, shown: String) {
        self.synchronised = synchronised
        self.maxErrorMicroseconds = maxErrorMicroseconds
        self.year = year
        self.shown = shown
    }
}
