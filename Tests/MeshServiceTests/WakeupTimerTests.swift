import Dispatch
import MeshTestSupport
import Testing
@testable import MeshService

@Suite("The relay wake-up timer")
struct WakeupTimerTests {
    @Test("An armed timer runs its block on the queue once the wait is over")
    func firesOnTheQueue() throws {
        let queue = DispatchQueue(label: "wakeup-timer-test")
        let mark = QueueMark(queue)
        let firedOnQueue = DispatchSemaphore(value: 0)
        let timer = try WakeupTimer(queue: queue) {
            if mark.isCurrent { firedOnQueue.signal() }
        }
        defer { timer.stop() }
        timer.arm(after: .milliseconds(2))
        #expect(firedOnQueue.wait(timeout: .now() + .seconds(5)) == .success, "the timer never fired on its queue")
    }

    @Test("Arming again replaces the deadline, an earlier one included")
    func rearmingReplacesTheDeadline() throws {
        let fired = DispatchSemaphore(value: 0)
        let timer = try WakeupTimer(queue: DispatchQueue(label: "wakeup-timer-test")) { fired.signal() }
        defer { timer.stop() }
        timer.arm(after: .seconds(3600))
        timer.arm(after: .milliseconds(1))
        #expect(fired.wait(timeout: .now() + .seconds(5)) == .success, "the earlier deadline did not replace the later one")
    }
}
