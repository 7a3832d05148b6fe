import Testing
@testable import GATTBridge

/// When the adapter is power-cycled so that an address never carries two advertised names
/// (docs/BLUEZ.md, "Addresses").
@Suite struct AddressRotationTests {
    /// One step of a story: what happens to the adapter, or a name used at a time, and the decision.
    enum Step: Sendable {
        case poweredOn
        case forgotten
        case cycleFailed(String)
        case use(String, at: Double, expect: AddressRotation.Decision)
    }

    struct Story: CustomTestStringConvertible, Sendable {
        let why: String
        let enabled: Bool
        let steps: [Step]
        var testDescription: String { why }
    }

    static let stories: [Story] = [
        Story(why: "off: never cycles, whatever the names", enabled: false, steps: [
            .use("aaaaaaaa", at: 0, expect: .proceed), .use("bbbbbbbb", at: 3600, expect: .proceed),
        ]),
        Story(why: "an adapter found on has an address of unknown past: cycle before the first use", enabled: true, steps: [
            .use("aaaaaaaa", at: 0, expect: .cycle), .poweredOn, .use("aaaaaaaa", at: 1, expect: .proceed),
        ]),
        Story(why: "an adapter we powered on is fresh: no cycle", enabled: true, steps: [
            .poweredOn, .use("aaaaaaaa", at: 0, expect: .proceed), .use("aaaaaaaa", at: 500, expect: .proceed),
        ]),
        Story(why: "a new name on a used address cycles; the new address then carries it", enabled: true, steps: [
            .poweredOn, .use("aaaaaaaa", at: 0, expect: .proceed), .use("bbbbbbbb", at: 3600, expect: .cycle),
            .poweredOn, .use("bbbbbbbb", at: 3601, expect: .proceed), .use("cccccccc", at: 7200, expect: .cycle),
        ]),
        Story(why: "bluetoothd or the adapter gone and back: unknown again, cycle", enabled: true, steps: [
            .poweredOn, .use("aaaaaaaa", at: 0, expect: .proceed), .forgotten,
            .use("aaaaaaaa", at: 100, expect: .cycle),
        ]),
        Story(why: "a second cycle within a minute is skipped (a clock stepping to and fro)", enabled: true, steps: [
            .use("aaaaaaaa", at: 0, expect: .cycle), .poweredOn, .use("aaaaaaaa", at: 1, expect: .proceed),
            .use("bbbbbbbb", at: 30, expect: .proceedTooSoon), .use("bbbbbbbb", at: 31, expect: .proceed),
            .use("aaaaaaaa", at: 60, expect: .cycle),
        ]),
        Story(why: "a refused cycle goes on under the old address, which then carries the name", enabled: true, steps: [
            .poweredOn, .use("aaaaaaaa", at: 0, expect: .proceed), .use("bbbbbbbb", at: 3600, expect: .cycle),
            .cycleFailed("bbbbbbbb"), .use("bbbbbbbb", at: 3601, expect: .proceed),
        ]),
    ]

    @Test(arguments: stories)
    func story(_ story: Story) {
        var rotation = AddressRotation(enabled: story.enabled)
        for (index, step) in story.steps.enumerated() {
            switch step {
            case .poweredOn: rotation.poweredOn()
            case .forgotten: rotation.forgotten()
            case .cycleFailed(let name): rotation.cycleFailed(name: name)
            case .use(let name, let at, let expected):
                #expect(rotation.use(name: name, now: at) == expected, "step \(index)")
            }
        }
    }

    @Test func aCycleIsRecordedOnlyWhenDecided() {
        var rotation = AddressRotation(enabled: true, minimumInterval: 10)
        #expect(rotation.lastCycle == nil)
        #expect(rotation.use(name: "aaaaaaaa", now: 5) == .cycle)
        #expect(rotation.lastCycle == 5)
        rotation.poweredOn()
        #expect(rotation.address == .fresh)
        #expect(rotation.use(name: "aaaaaaaa", now: 6) == .proceed)
        #expect(rotation.address == .carried("aaaaaaaa"))
        #expect(rotation.lastCycle == 5)
    }
}
