import Testing
@testable import GATTBridge

/// The lookup of the peer's characteristic waits for objects that arrive after ServicesResolved.
@Suite struct CharacteristicLookupTests {
    let char = "/org/bluez/hci0/dev_AA_AA_AA_AA_AA_AA/service0010/char0011"

    @Test func waitsForServicesFirst() {
        #expect(CharacteristicLookup.step(servicesResolved: false, characteristic: nil, resolvedAt: nil, now: 5,
                                          grace: 15, deadline: 32) == .waitForServices)
        #expect(CharacteristicLookup.step(servicesResolved: false, characteristic: char, resolvedAt: nil, now: 5,
                                          grace: 15, deadline: 32) == .waitForServices)
    }

    @Test func subscribesOnceResolvedAndFound() {
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: char, resolvedAt: nil, now: 5,
                                          grace: 15, deadline: 32) == .subscribe(characteristic: char))
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: char, resolvedAt: 1, now: 40,
                                          grace: 15, deadline: 32) == .subscribe(characteristic: char))
    }

    @Test func resolvedWithoutTheCharacteristicLooksAgainInsteadOfFailing() {
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: nil, resolvedAt: nil, now: 10,
                                          grace: 15, deadline: 32) == .recheck(at: 10.5))
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: nil, resolvedAt: 10, now: 24.8,
                                          grace: 15, deadline: 32) == .recheck(at: 25))
    }

    @Test func givesUpAfterTheGrace() {
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: nil, resolvedAt: 10, now: 25,
                                          grace: 15, deadline: 32) == .giveUp)
    }

    @Test func theAttemptDeadlineBoundsTheGrace() {
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: nil, resolvedAt: 25, now: 31.9,
                                          grace: 15, deadline: 32) == .recheck(at: 32))
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: nil, resolvedAt: 25, now: 32,
                                          grace: 15, deadline: 32) == .giveUp)
    }

    @Test func aLookAtTheResolvedTimeItselfStillWaits() {
        // The session records resolvedAt = now on the first look; that look must not give up.
        #expect(CharacteristicLookup.step(servicesResolved: true, characteristic: nil, resolvedAt: 7, now: 7,
                                          grace: 15, deadline: 32) == .recheck(at: 7.5))
    }

    @Test(arguments: [(1.0, 33.0, 11.0), (2.0, 33.0, 12.0), (30.0, 33.0, 33.0)])
    func theServicesWaitIsShorterThanTheAttempt(connectedAt: Double, deadline: Double, expected: Double) {
        #expect(CharacteristicLookup.servicesDeadline(connectedAt: connectedAt, deadline: deadline) == expected)
    }

    @Test func theDefaultServicesWaitLeavesMostOfTheAttempt() {
        let attempt = BlueZConfiguration(localName: "n").attemptBound
        #expect(attempt == 32)
        #expect(CharacteristicLookup.servicesWait == 10)
        #expect(CharacteristicLookup.servicesWait < attempt / 3)
    }
}
