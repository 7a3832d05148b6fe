import MQTTBridge
import Testing

@Suite struct ReconnectBackoffTests {
    @Test func doublesUpToTheMaximumAndResetsOnConnect() {
        var backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(8))
        let waits = (0..<6).map { _ in backoff.nextDelay(fraction: 1) }
        #expect(waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
        backoff.connected()
        #expect(backoff.nextDelay(fraction: 1) == .seconds(1))
    }

    @Test(arguments: [0.0, 0.25, 1.0, -3, 7])
    func jitterStaysBetweenHalfAndAll(fraction: Double) {
        var backoff = ReconnectBackoff(initial: .seconds(2), maximum: .seconds(2))
        let wait = backoff.nextDelay(fraction: fraction)
        #expect(wait >= .seconds(1) && wait <= .seconds(2))
    }
}
