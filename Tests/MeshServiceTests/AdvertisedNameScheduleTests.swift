import MeshCrypto
import Testing
@testable import MeshService

@Suite("Which name the advertisement carries as mesh time passes (PROTOCOL.md D13)")
struct AdvertisedNameScheduleTests {
    private static let names = try! AdvertisedName(nameKey: [UInt8](repeating: 0x5a, count: 32))
    private static let hour: UInt64 = 3_600_000
    private static let start: UInt64 = 1_700_000_000_000  // epoch 472,222, 2,222 s in
    /// Clock steps in milliseconds: set back 3 h and 1 h, forward 1 h and 40 days.
    static let steps: [Int64] = [-3 * 3_600_000, -3_600_000, 3_600_000, 40 * 24 * 3_600_000]

    private func name(_ epoch: UInt64) -> String { try! Self.names.name(epoch: epoch) }

    @Test("The first time gives the epoch's name; the same epoch gives nothing; the next epoch a new name")
    func rotatesAtTheBoundary() throws {
        var schedule = AdvertisedNameSchedule(names: Self.names)
        let first = try #require(try schedule.next(meshTime: Self.start)?.get())
        #expect(first == .init(epoch: 472_222, name: name(472_222)))
        let sameSecond = schedule.next(meshTime: Self.start + 1_000)
        let lastMillisecond = schedule.next(meshTime: 472_223 * Self.hour - 1)
        #expect(sameSecond == nil && lastMillisecond == nil)
        let next = try #require(try schedule.next(meshTime: 472_223 * Self.hour)?.get())
        #expect(next == .init(epoch: 472_223, name: name(472_223)))
        #expect(next.name != first.name)
    }

    @Test("A clock that steps (mesh time learned, or set back) renames at once, to the new epoch's name", arguments: steps)
    func followsClockSteps(step: Int64) throws {
        var schedule = AdvertisedNameSchedule(names: Self.names)
        _ = schedule.next(meshTime: Self.start)
        let stepped = UInt64(Int64(Self.start) + step)
        let change = try #require(try schedule.next(meshTime: stepped)?.get())
        #expect(change.epoch == stepped / Self.hour)
        #expect(change.name == name(stepped / Self.hour))
        let after = schedule.next(meshTime: stepped + 10)
        #expect(after == nil)
    }
}
