import Testing
@testable import GATTBridge

/// The advertisement is not registered again while a central that just connected resolves us.
@Suite struct AdvertisementRefreshTests {
    @Test(arguments: [(true, AdvertisementRefresh.afterConnection), (false, AdvertisementRefresh.afterChange)])
    func delayFollowsTheChange(_ connected: Bool, _ expected: Double) {
        #expect(AdvertisementRefresh.delay(connected: connected) == expected)
    }

    /// In the emulator a client's claim came 1.3-3.5 s after it connected; the wait after a
    /// connection covers that with room, and stays within the 15 s a Connect of the next client may wait.
    @Test func theWaitAfterAConnectionOutlastsAClaim() {
        #expect(AdvertisementRefresh.delay(connected: true) >= 3.5 * 2)
        #expect(AdvertisementRefresh.delay(connected: true) < BlueZConfiguration(localName: "node").connectTimeout)
        #expect(AdvertisementRefresh.delay(connected: false) < AdvertisementRefresh.delay(connected: true))
    }
}
