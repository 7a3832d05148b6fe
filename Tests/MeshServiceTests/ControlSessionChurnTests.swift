import Dispatch
import Foundation
import Synchronization
import Glibc
import Testing
@testable import MeshService

/// Many short sessions at once, as `relayctl` polling from several shells makes them: each client
/// connects, asks for the status, reads the answer and closes, so the server sees end of input and
/// a hang-up (EPOLLHUP) on sockets whose sources it is cancelling.
@Suite("control session churn")
struct ControlSessionChurnTests {
    @Test func shortSessionsFromSeveralThreads() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let answered = Mutex(0)
        let threads = 4, sessions = Int(ProcessInfo.processInfo.environment["MESHNODE_CHURN_SESSIONS"] ?? "") ?? 300
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<sessions {
                guard let client = try? RawControlClient(path: fixture.path) else { continue }
                client.write(#"{"id": 1, "command": "status"}"# + "\n")
                if client.readObject()?["ok"] as? Bool == true { answered.withLock { $0 += 1 } }
                client.disconnect()
            }
        }
        #expect(answered.withLock { $0 } == threads * sessions)
    }
}
