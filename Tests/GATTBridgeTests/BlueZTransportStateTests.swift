import DBusKit
import Testing
@testable import GATTBridge

/// The transport's state as values: the facts it follows from, the operator's line with its
/// countdown (time passed in), the validation of `GetNameOwner` replies, and the recheck backoff.
@Suite struct BlueZTransportStateTests {
    /// Every step up to a registered application, on hci0, with a gatt server.
    let ready = BlueZReadiness(adapter: "hci0", busConnected: true, bluetoothdPresent: true, objectsLoaded: true,
                               adapterPresent: true, adapterPowered: true, applicationRegistered: true)

    @Test func everyStepDoneIsRunning() {
        #expect(ready.state == .running("hci0"))
        #expect(ready.state.isRunning)
    }

    @Test func theEarliestMissingStepWins() {
        var facts = ready
        facts.applicationRegistered = false
        #expect(facts.state == .registering("hci0"))
        facts.adapterPowered = false
        facts.recheckAt = 50
        #expect(facts.state == .adapterPoweredOff("hci0", retryAt: 50))
        facts.adapterPresent = false
        #expect(facts.state == .waitingForAdapter("hci0", retryAt: 50))
        facts.objectsLoaded = false
        #expect(facts.state == .waitingForBluetoothd(retryAt: nil))
        facts.bluetoothdPresent = false
        #expect(facts.state == .waitingForBluetoothd(retryAt: 50))
        facts.busConnected = false
        facts.busRetryAt = 12
        #expect(facts.state == .connectingToBus(retryAt: 12))
        facts.stopping = true
        #expect(facts.state == .stopped)
    }

    @Test func aClientWithoutAGATTServerRunsOncePowered() {
        var facts = ready
        facts.needsApplication = false
        facts.applicationRegistered = false
        #expect(facts.state == .running("hci0"))
    }

    @Test func freshFactsAreConnectingToTheBus() {
        #expect(BlueZReadiness(adapter: "hci1").state == .connectingToBus(retryAt: nil))
    }

    @Test(arguments: [
        (BlueZTransportState.connectingToBus(retryAt: nil), "connecting to the system bus"),
        (.connectingToBus(retryAt: 103.2), "system bus unavailable (retry in 4 s)"),
        (.waitingForBluetoothd(retryAt: 104), "waiting for bluetoothd (retry in 4 s)"),
        (.waitingForBluetoothd(retryAt: nil), "waiting for bluetoothd"),
        (.waitingForAdapter("hci1", retryAt: 130), "waiting for adapter hci1 (retry in 30 s)"),
        (.adapterPoweredOff("hci0", retryAt: nil), "adapter hci0 powered off"),
        (.adapterPoweredOff("hci0", retryAt: 100.5), "adapter hci0 powered off (retry in 1 s)"),
        (.registering("hci0"), "registering with bluetoothd on hci0"),
        (.running("hci0"), "running on hci0"),
        (.stopped, "stopped"),
    ])
    func summaryAtTimeHundred(_ state: BlueZTransportState, _ expected: String) {
        #expect(state.summary(at: 100) == expected)
    }

    @Test func aRetryWhoseTimeHasComeSaysRetrying() {
        #expect(BlueZTransportState.waitingForBluetoothd(retryAt: 100).summary(at: 100) == "waiting for bluetoothd (retrying)")
        #expect(BlueZTransportState.waitingForBluetoothd(retryAt: 90).summary(at: 100) == "waiting for bluetoothd (retrying)")
        #expect(BlueZTransportState.countdown(.infinity) == "retrying")
        #expect(BlueZTransportState.countdown(1e12) == "retry in 86400 s")
    }

    @Test func retryAtOnlyForWaitingStates() {
        #expect(BlueZTransportState.waitingForAdapter("hci0", retryAt: 7).retryAt == 7)
        #expect(BlueZTransportState.running("hci0").retryAt == nil)
        #expect(BlueZTransportState.registering("hci0").retryAt == nil)
    }

    @Test func aStepIsTheStateWithoutItsRetryTime() {
        #expect(BlueZTransportState.waitingForBluetoothd(retryAt: 3).step == .waitingForBluetoothd(retryAt: nil))
        #expect(BlueZTransportState.waitingForAdapter("hci2", retryAt: 3).step == .waitingForAdapter("hci2", retryAt: nil))
        #expect(BlueZTransportState.adapterPoweredOff("hci0", retryAt: 1).step == .adapterPoweredOff("hci0", retryAt: nil))
        #expect(BlueZTransportState.connectingToBus(retryAt: 1).step == .connectingToBus(retryAt: nil))
        #expect(BlueZTransportState.running("hci0").step == .running("hci0"))
    }

    @Test func nameOwnerReplyWithAUniqueNameIsTheOwner() {
        #expect(NameOwnerLookup(.success(DBusArguments([.string(":1.7")]))) == .owner(":1.7"))
    }

    @Test func nameHasNoOwnerMeansBluetoothdIsAbsent() {
        let reply = Result<DBusArguments, DBusError>.failure(
            .remote(name: "org.freedesktop.DBus.Error.NameHasNoOwner", message: "Could not get owner of name 'org.bluez'"))
        #expect(NameOwnerLookup(reply) == .noOwner)
    }

    @Test func otherFailuresLeaveTheOwnerUnknown() {
        #expect(NameOwnerLookup(.failure(.timedOut("GetNameOwner"))) == .failed(.timedOut("GetNameOwner")))
        #expect(NameOwnerLookup(.failure(.remote(name: "org.freedesktop.DBus.Error.AccessDenied", message: "")))
            == .failed(.remote(name: "org.freedesktop.DBus.Error.AccessDenied", message: "")))
    }

    @Test(arguments: [
        [DBusValue](), [.string("org.bluez")], [.string(":")], [.string(":" + String(repeating: "1", count: 255))],
        [.uint32(7)], [.string(":1.7"), .string(":1.8")],
    ])
    func malformedOwnerRepliesAreRefused(_ values: [DBusValue]) {
        guard case .failed(.malformed) = NameOwnerLookup(.success(DBusArguments(values))) else {
            Issue.record("accepted \(values)")
            return
        }
    }

    @Test func rechecksBackOffFromOneToThirtySecondsAndNeverPenalise() {
        let policy = BlueZSession.recheckPolicy
        #expect((1...8).map { policy.nominalDelay(afterFailures: $0) } == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(policy.nominalDelay(afterFailures: 10_000) == 30)
        #expect(policy.delay(afterFailures: 10_000, unit: 1) <= 36)
    }

    @Test func aRecheckScheduleForgetsOnSuccess() {
        var waits = BackoffSchedule(policy: BlueZSession.recheckPolicy, capacity: 4)
        #expect(waits.recordFailure("bluetoothd", now: 0, unit: 0.5) == 1)
        #expect(waits.recordFailure("bluetoothd", now: 1, unit: 0.5) == 2)
        waits.recordSuccess("bluetoothd")
        #expect(waits.recordFailure("bluetoothd", now: 9, unit: 0.5) == 1)
    }
}
