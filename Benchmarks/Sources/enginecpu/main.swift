// enginecpu: the engine alone on Benchmarks/scripts/daemon-cpu.sh's flood (issue 12). M, A, B and C run
// in this process; M broadcasts `--messages` one-frame messages `--rate` a second (virtual
// time); B checks, delivers and relays each to A and C. Prints one JSON line: B's engine CPU
// per relayed message, beside which the script puts meshnoded B's whole-process CPU.
//   enginecpu [--messages N] [--rate R] [-- MESHNODED-FLAGS...]   (the same flags B runs with)
import Glibc
import MeshConfig
import MeshNode
import MeshService

/// Prints `text` to stderr and exits with status 1.
func fail(_ text: String) -> Never {
    let bytes = Array("enginecpu: \(text)\n".utf8)
    bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}

guard let options = EngineCPUOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
    fail(EngineCPUOptions.usage)
}
var config = DaemonSettings()
do {
    try ConfigLoader.apply(DaemonCommandLine.parse(options.daemonFlags).overrides, to: &config)
} catch {
    fail("\(error)")
}
var wall = timespec()
clock_gettime(CLOCK_REALTIME, &wall)
let line: EngineLine
do {
    line = try EngineLine(
        configuration: config.engineConfiguration, fragmenterLimits: config.fragmenterLimits, mtu: config.udp.mtu,
        tickInterval: .milliseconds(250), wallClockAtZero: UInt64(wall.tv_sec) * 1000 + UInt64(wall.tv_nsec / 1_000_000))
} catch {
    fail("identities: \(error)")
}
guard line.connect(within: .seconds(30)) else { fail("B did not get its three neighbours") }
let b = line.engines[EngineLine.b]
let start = Duration.seconds(60)
line.advance(to: start)  // the idle ticks up to the flood are not the flood's
line.measuring = true
let before = (cpu: line.bEngineCPU, calls: line.bCalls, counters: b.kindCounters[.message])
let interval = Duration.seconds(1) / options.rate
for index in 0..<options.messages {
    line.advance(to: start + interval * index)
    do { try line.broadcastFromM(text: "flood") } catch { fail("M could not send: \(error)") }
}
line.advance(to: start + interval * options.messages + .seconds(1))
line.measuring = false
let after = b.kindCounters[.message]
let cpu = line.bEngineCPU - before.cpu
let seconds = Double(cpu.components.seconds) + Double(cpu.components.attoseconds) / 1e18
let received = after.received - before.counters.received
let relayedCopies = after.relayed - before.counters.relayed
let relayedMessages = min(received, relayedCopies / 2)
let perMessage = relayedMessages > 0 ? seconds * 1e6 / Double(relayedMessages) : 0
print("{\"messages_sent\":\(options.messages),\"rate\":\(options.rate),\"b_received\":\(received)," +
      "\"b_relayed_copies\":\(relayedCopies),\"b_relayed_messages\":\(relayedMessages)," +
      "\"b_delivered\":\(after.delivered - before.counters.delivered),\"b_engine_calls\":\(line.bCalls - before.calls)," +
      "\"b_engine_cpu_s\":\(seconds),\"us_per_relayed_message\":\(perMessage)}")
