import ControlProtocol
import Dispatch
import Glibc
import MeshTestSupport
import Testing
@testable import MeshService

@Suite("process helpers")
struct ProcessTests {
    @Test func parsesProcStatus() {
        let text = "Name:\tmeshnoded\nVmPeak:\t  300000 kB\nVmHWM:\t    4096 kB\nVmRSS:\t    2048 kB\nThreads:\t3\n"
        #expect(ProcessMemory.parse(status: text) == MemoryReport(residentBytes: 2_097_152, peakResidentBytes: 4_194_304))
        #expect(ProcessMemory.parse(status: "VmRSS:\t1 kB\n") == nil)
        #expect(ProcessMemory.parse(status: "") == nil)
    }

    @Test func readsThisProcess() {
        let memory = ProcessMemory.current()
        #expect(memory.residentBytes > 0 && memory.peakResidentBytes >= memory.residentBytes)
        #expect(ProcessMemory.current(path: "/nonexistent") == MemoryReport(residentBytes: 0, peakResidentBytes: 0))
    }

    @Test func sighupReachesTheReloadCallback() {
        let calls = Recorder<String>()
        let watcher = SignalWatcher(queue: DispatchQueue(label: "signals"), onStop: { calls.append("stop \($0)") },
                                    onReload: { calls.append("reload") })
        watcher.start()
        defer {
            watcher.cancel()
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, SIG_DFL)
            signal(SIGHUP, SIG_DFL)
        }
        // The dispatch source arms asynchronously; a signal sent before that is ignored, so resend.
        func deliver(_ number: Int32, until expected: String) -> Bool {
            for _ in 0..<50 {
                kill(getpid(), number)
                if calls.wait(timeout: .milliseconds(200), until: { $0.contains(expected) }) { return true }
            }
            return false
        }
        #expect(deliver(SIGHUP, until: "reload"))
        #expect(deliver(SIGINT, until: "stop \(SIGINT)"))
    }
}
