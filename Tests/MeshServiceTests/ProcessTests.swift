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

    /// A watched signal sent to a thread that blocks it waits as pending and is taken by the
    /// next wait, as one sent to the daemon before its main thread waits. The signal goes to
    /// this thread only (`pthread_kill`), so nothing else in the test process sees it.
    @Test("A blocked signal waits as pending and is taken as stop or reload", arguments: [
        (SIGHUP, SignalWatcher.Event.reload), (SIGTERM, .stop(SIGTERM)), (SIGINT, .stop(SIGINT)),
    ])
    func pendingSignalIsTaken(number: Int32, expected: SignalWatcher.Event) {
        var previous = sigset_t()
        var set = sigset_t()
        sigemptyset(&set)
        #expect(pthread_sigmask(SIG_BLOCK, &set, &previous) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        #expect(SignalWatcher.blockWatchedSignals() == 0)
        #expect(pthread_kill(pthread_self(), number) == 0)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, number) == 1, "blocked, so not delivered yet")
        #expect(SignalWatcher.next() == expected)
        sigpending(&pending)
        #expect(sigismember(&pending, number) == 0, "taken")
    }
}
