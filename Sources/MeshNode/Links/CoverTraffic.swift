#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When cover packets go on an opaque link (PROTOCOL.md D14): gaps drawn from an exponential
/// distribution of a given mean, so their times form a Poisson process a listener cannot predict.
enum CoverSchedule {
    /// The least mean gap `[privacy] cover_interval` accepts.
    static let floor: Duration = .seconds(1)
    /// No gap is longer than this many means (a draw beyond it, 1 in 22,000, is cut to it).
    static let longestGapFactor = 10.0

    /// A gap of mean `mean`: −ln(U)·mean for U uniform in (0, 1], at most ``longestGapFactor``·mean.
    static func gap(mean: Duration, random: inout some RandomNumberGenerator) -> Duration {
        let uniform = (Double(random.next() >> 11) + 1) / 9_007_199_254_740_992  // 53 bits, never 0
        return mean * min(-log(uniform), longestGapFactor)
    }
}

/// The body lengths of the last real opaque packets a link sent: a cover packet's body is as long
/// as one of them, drawn at random, so its padding bucket follows the link's real traffic.
struct CoverSizes {
    /// How many lengths are kept.
    static let capacity = 8
    /// The body of a cover packet before any real one: a link acknowledgement's (D12), 19 bytes.
    static let initialLength = 19
    private var lengths: [Int] = []
    private var next = 0

    /// Notes the body length of a real opaque packet, forgetting the oldest past ``capacity``.
    mutating func note(_ length: Int) {
        if lengths.count < Self.capacity { lengths.append(length) } else { lengths[next] = length }
        next = (next + 1) % Self.capacity
    }

    /// One of the noted lengths, uniformly; ``initialLength`` before any.
    func draw(random: inout some RandomNumberGenerator) -> Int {
        lengths.isEmpty ? Self.initialLength : lengths[Int(random.next(upperBound: UInt64(lengths.count)))]
    }
}
