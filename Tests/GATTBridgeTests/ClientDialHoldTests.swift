import Testing
@testable import GATTBridge

/// A client without a GATT server advertises nothing, so no node can dial it: it never waits out a
/// node's Connect (before, a client with the higher address waited 17-19 s before its first dial).
@Suite struct ClientDialHoldTests {
    @Test(arguments: [("00:AA:01:02:00:02", "00:AA:01:01:00:01"), ("00:AA:01:01:00:01", "00:AA:01:02:00:02")],
          [0.0, 0.5, 0.999])
    func aClientLeadsWhateverTheAddresses(_ pair: (own: String, peer: String), _ unit: Double) {
        let hold = ConnectionTieBreak.hold(own: pair.own, peer: pair.peer, unit: unit, connectTimeout: 15, peerCanDial: false)
        #expect(hold == ConnectionTieBreak.leaderWindow * unit)
    }

    @Test func aClientWithoutAnAddressLeadsToo() {
        #expect(ConnectionTieBreak.hold(own: nil, peer: "00:AA:01:01:00:01", unit: 1, connectTimeout: 15,
                                        peerCanDial: false) == ConnectionTieBreak.leaderWindow)
    }

    @Test func aNodeWithTheHigherAddressStillFollows() {
        let hold = ConnectionTieBreak.hold(own: "00:AA:01:02:00:02", peer: "00:AA:01:01:00:01", unit: 0,
                                           connectTimeout: 15, peerCanDial: true)
        #expect(hold == ConnectionTieBreak.followerDelay(connectTimeout: 15))
    }
}
