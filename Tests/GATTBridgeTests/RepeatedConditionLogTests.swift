import Foundation
import GATTBridge
import MeshLink
import Synchronization
import Testing

/// A condition retried every few seconds (the system bus missing) is logged once per change,
/// with a count when it ends (issue 33, item 6); no time passes in these tests.
@Suite("repeated conditions are logged once per change")
struct RepeatedConditionLogTests {
    @Test("start, quiet repeats, a change, the end with its count")
    func lifecycle() {
        var log = RepeatedConditionLog()
        #expect(log.report("bus", summary: "ENOENT") == .started)
        for _ in 0..<286 { #expect(log.report("bus", summary: "ENOENT") == .quiet) }
        #expect(log.report("bus", summary: "EACCES") == .changed(repeats: 287))
        #expect(log.report("bus", summary: "EACCES") == .quiet)
        #expect(log.isActive("bus"))
        #expect(log.clear("bus") == .ended(repeats: 2))
        #expect(!log.isActive("bus") && log.clear("bus") == .none)
        #expect(log.report("bus", summary: "ENOENT") == .started)
    }

    @Test("conditions are kept apart by key")
    func keys() {
        var log = RepeatedConditionLog()
        #expect(log.report("bus", summary: "x") == .started)
        #expect(log.report("broker", summary: "x") == .started)
        #expect(log.clear("broker") == .ended(repeats: 1))
        #expect(log.report("bus", summary: "x") == .quiet)
    }

    /// 287 attempts in 48 minutes, as the issue saw, give one warning line, not 287.
    @Test("an outage's log lines: warnings counted by what the decision says")
    func lineCount() {
        var log = RepeatedConditionLog()
        var warnings = 0
        for _ in 0..<287 {
            switch log.report("bus", summary: "Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory") {
            case .started, .changed: warnings += 1
            default: break
            }
        }
        #expect(warnings == 1)
    }
}

/// The real transport on a bus address where nothing listens: it retries (1 s, then longer) and
/// warns once; the retries after the first are debug lines.
@Suite("the BlueZ transport warns once while the system bus is missing")
struct MissingBusLogTests {
    @Test func oneWarningForManyAttempts() throws {
        let events = Mutex<[BlueZLogEvent]>([])
        var configuration = BlueZConfiguration(localName: "abcd1234", powerOnAdapter: false)
        configuration.busAddress = "unix:path=/nonexistent/meshnode-test-bus"
        let transport = try BlueZTransport(configuration: configuration) { event in events.withLock { $0.append(event) } }
        try transport.start { _ in }
        defer { transport.stop() }
        let deadline = ContinuousClock.now + .seconds(20)
        var attempts = 0
        while attempts < 3, ContinuousClock.now < deadline {
            usleep(50_000)
            attempts = events.withLock { $0.filter { $0.message.contains("system bus") }.count }
        }
        let bus = events.withLock { $0.filter { $0.message.contains("system bus") } }
        #expect(bus.count >= 3, "only \(bus.count) attempts in 20 s")
        #expect(bus.filter { $0.level == .warning }.count == 1, "\(bus.map(\.description))")
    }
}
