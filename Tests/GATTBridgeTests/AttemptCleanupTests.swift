import Testing
@testable import GATTBridge

/// A failed attempt never cuts an LE connection the peer may be using.
@Suite struct AttemptCleanupTests {
    @Test(arguments: AttemptStage.allCases)
    func anExistingConnectionIsNeverCut(_ stage: AttemptStage) {
        for failures in 1...5 {
            #expect(AttemptCleanup.after(stage: stage, connected: true, linked: false, failures: failures) == .none)
        }
    }

    @Test(arguments: AttemptStage.allCases)
    func aLinkedDeviceIsLeftAlone(_ stage: AttemptStage) {
        #expect(AttemptCleanup.after(stage: stage, connected: false, linked: true, failures: 9) == .none)
        #expect(AttemptCleanup.after(stage: stage, connected: true, linked: true, failures: 9) == .none)
    }

    @Test func aConnectThatTimedOutIsCancelled() {
        let first = AttemptCleanup.after(stage: .connecting, connected: false, linked: false, failures: 1)
        #expect(first == AttemptCleanup(disconnect: true, removeDevice: false))
        let second = AttemptCleanup.after(stage: .connecting, connected: false, linked: false, failures: 2)
        #expect(second == AttemptCleanup(disconnect: true, removeDevice: true))
    }

    @Test func afterConnectOnlyTheDeviceObjectMayGoOnceTheConnectionIsGone() {
        for stage in [AttemptStage.resolving, .subscribing, .stoppingDiscovery] {
            #expect(AttemptCleanup.after(stage: stage, connected: false, linked: false, failures: 1) == .none)
            #expect(AttemptCleanup.after(stage: stage, connected: false, linked: false, failures: 2)
                    == AttemptCleanup(disconnect: false, removeDevice: true))
        }
    }

    @Test func removalIsCheckedAgainAfterTheDisconnect() {
        #expect(AttemptCleanup.mayRemove(connected: false, linked: false))
        #expect(!AttemptCleanup.mayRemove(connected: true, linked: false))
        #expect(!AttemptCleanup.mayRemove(connected: false, linked: true))
    }

    @Test func onlyStagesAfterConnectShareTheConnection() {
        #expect(AttemptStage.allCases.filter(\.pastConnect) == [.resolving, .subscribing])
    }

    @Test(arguments: [1, 2, 3])
    func aConnectionWhoseServicesNeverResolvedIsCut(failures: Int) {
        #expect(AttemptCleanup.after(stage: .resolving, connected: true, linked: false, failures: failures,
                                     servicesTimedOut: true)
                == AttemptCleanup(disconnect: true, removeDevice: failures >= AttemptCleanup.removeAfterFailures))
        #expect(AttemptCleanup.after(stage: .resolving, connected: true, linked: true, failures: failures,
                                     servicesTimedOut: true) == .none)
    }
}
