import Dispatch
import MeshProtocol
import Testing
@testable import MeshService

@Suite struct EngineDriverBridgeInboxTests {
    @Test func theBridgeInboxHoldsAtMost256AndRefusesTheRest() throws {
        // No consumer yet: nothing drains, so what the inbox holds is exact.
        let driver = EngineDriver(queue: DispatchQueue(label: "bridge-inbox-test"), now: { .zero })
        let envelope = Envelope(
            kind: .message, messageID: try MessageID(bytes: Array(repeating: 1, count: 16)),
            origin: try NodeID(bytes: Array(repeating: 2, count: 16)), timestamp: 1)
        let accepted = (0..<300).map { _ in driver.enqueueBridged(envelope) }
        #expect(accepted.prefix(EngineDriver.maxBridged).allSatisfy { $0 })
        #expect(accepted.dropFirst(EngineDriver.maxBridged).allSatisfy { !$0 })
        #expect(EngineDriver.maxBridged == 256)
    }
}
