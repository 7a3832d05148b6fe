import MeshLink
import Testing

@Suite("Frame budget")
struct FrameBudgetTests {
    /// Admits `count` frames spaced `spacing` apart from `start`; returns how many were admitted.
    static func admitted(_ count: Int, every spacing: Duration, from start: Duration = .zero,
                         into allowance: inout FrameAllowance, budget: FrameBudget) -> Int {
        var taken = 0
        for index in 0..<count where allowance.admit(at: start + spacing * index, under: budget) { taken += 1 }
        return taken
    }

    @Test("a full allowance takes exactly the burst at once, then nothing until time pays it back",
          arguments: [(10, 20), (2_000, 4_000), (1, 1)])
    func burstThenRefusal(rate: Int, burst: Int) {
        let budget = FrameBudget(framesPerSecond: rate, burst: burst)
        var allowance = FrameAllowance()
        #expect(Self.admitted(burst + 5, every: .zero, into: &allowance, budget: budget) == burst)
        let another = allowance.admit(at: .zero, under: budget)
        // One frame's interval later, exactly one more.
        let interval = Duration.seconds(1) / rate
        let paidBack = [allowance.admit(at: interval, under: budget), allowance.admit(at: interval, under: budget)]
        #expect(!another)
        #expect(paidBack == [true, false])
    }

    @Test("a link at or below the rate is never refused, however long it keeps it up", arguments: [1.0, 0.5])
    func steadyTrafficWithinTheRate(fraction: Double) {
        let budget = FrameBudget(framesPerSecond: 2_000)
        var allowance = FrameAllowance()
        let spacing = Duration.seconds(1) / Int(2_000 * fraction)
        #expect(Self.admitted(20_000, every: spacing, into: &allowance, budget: budget) == 20_000)
    }

    @Test("a flood at ten times the rate gets the burst plus the rate, no more")
    func floodIsCutToTheRate() {
        let budget = FrameBudget(framesPerSecond: 1_000, burst: 2_000)
        var allowance = FrameAllowance()
        // 100,000 frames in 10 s: 10,000 a second.
        let taken = Self.admitted(100_000, every: .microseconds(100), into: &allowance, budget: budget)
        #expect((2_000 + 9_999)...(2_000 + 10_001) ~= taken)
    }

    @Test("a quiet spell refills the allowance up to the burst only")
    func quietSpellRefillsToTheBurst() {
        let budget = FrameBudget(framesPerSecond: 100, burst: 50)
        var allowance = FrameAllowance()
        #expect(Self.admitted(50, every: .zero, into: &allowance, budget: budget) == 50)
        #expect(Self.admitted(200, every: .zero, from: .seconds(60), into: &allowance, budget: budget) == 50)
    }

    @Test("rate 0 is no budget", arguments: [FrameBudget.off, FrameBudget(framesPerSecond: 0, burst: 10)])
    func offAdmitsEverything(budget: FrameBudget) {
        var allowance = FrameAllowance()
        #expect(budget.isOff)
        #expect(Self.admitted(100_000, every: .zero, into: &allowance, budget: budget) == 100_000)
    }

    @Test func defaultIsTwoSecondsOfTwoThousand() {
        #expect(FrameBudget.standard == FrameBudget(framesPerSecond: 2_000, burst: 4_000))
    }
}
