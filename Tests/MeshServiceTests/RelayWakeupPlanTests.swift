import Testing
@testable import MeshService

@Suite("When the relay wake-up fires: at most its slack after the earliest held relay")
struct RelayWakeupPlanTests {
    struct Case: Sendable, CustomStringConvertible {
        let nextDue: Int?
        let armed: Int?
        let expected: RelayWakeupPlan
        var description: String { "due \(nextDue.map(String.init) ?? "none"), armed \(armed.map(String.init) ?? "none")" }
    }

    /// Times in milliseconds, slack 2 ms.
    @Test("The deadline is the earliest due time plus the slack: kept when armed for it, moved otherwise, disarmed when nothing is held",
          arguments: [
              Case(nextDue: nil, armed: nil, expected: .keep),
              Case(nextDue: nil, armed: 10, expected: .disarm),
              Case(nextDue: 10, armed: nil, expected: .arm(at: .milliseconds(12))),
              Case(nextDue: 10, armed: 10, expected: .arm(at: .milliseconds(12))),
              Case(nextDue: 10, armed: 11, expected: .arm(at: .milliseconds(12))),
              Case(nextDue: 10, armed: 12, expected: .keep),
              Case(nextDue: 10, armed: 13, expected: .arm(at: .milliseconds(12))),
              Case(nextDue: 10, armed: 9, expected: .arm(at: .milliseconds(12))),
              Case(nextDue: 10, armed: 40, expected: .arm(at: .milliseconds(12))),
          ])
    func plans(_ example: Case) {
        let plan = RelayWakeupPlan.decide(
            nextDue: example.nextDue.map { .milliseconds($0) }, armed: example.armed.map { .milliseconds($0) },
            slack: .milliseconds(2))
        #expect(plan == example.expected)
    }

    @Test("With no slack the wake-up is armed for the due time itself")
    func noSlack() {
        #expect(RelayWakeupPlan.decide(nextDue: .milliseconds(5), armed: nil, slack: .zero) == .arm(at: .milliseconds(5)))
        #expect(RelayWakeupPlan.decide(nextDue: .milliseconds(5), armed: .milliseconds(5), slack: .zero) == .keep)
    }
}
