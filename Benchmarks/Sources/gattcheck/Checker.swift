import Dispatch
import Foundation
import GATTBridge
import Synchronization

/// One gattcheck run: a BlueZ transport, a frame sender, and what was observed.
final class Checker: Sendable {
    let options: Options
    let transport: BlueZTransport
    let state = Mutex(Observations())
    let sequence = Atomic<Int>(0)
    let started = DispatchTime.now().uptimeNanoseconds
    let queue = DispatchQueue(label: "gattcheck.sender")

    init(options: Options) {
        self.options = options
        let configuration = BlueZConfiguration(adapter: options.adapter, localName: options.name,
                                               allowAddresses: options.allow, denyAddresses: options.deny,
                                               connectTimeout: 20)
        var configured = configuration
        configured.writeType = options.writeType
        configured.writeWindow = options.writeWindow
        let name = options.name
        let start = started
        do {
            transport = try BlueZTransport(configuration: configured) { event in
                Checker.say(name, start, "log \(event)")
            }
        } catch {
            fail("bad configuration: \(error)")
        }
        transport.setProfile(Array("gattcheck \(options.name)".utf8), discoverable: true)
    }

    static func say(_ name: String, _ start: UInt64, _ line: String) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        FileHandle.standardOutput.write(Data((String(format: "[%7.3f] %@ ", seconds, name) + line + "\n").utf8))
    }

    func say(_ line: String) { Checker.say(options.name, started, line) }
    func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
    func frame(_ kind: String, _ body: String) -> [UInt8] { Array("\(kind)|\(options.name)|\(body)".utf8) }

    /// Sends one numbered frame on every link; every other frame is exactly the link's limit.
    func tick() {
        let seq = sequence.add(1, ordering: .relaxed).newValue
        let links = state.withLock { Array($0.links.values) }
        for link in links {
            var body = frame("D", "\(seq) ")
            let target = options.sizes.isEmpty ? (seq % 2 == 0 ? link.mtu : 0)
                : min(link.mtu, options.sizes[(seq - 1) % options.sizes.count])
            body += [UInt8](repeating: UInt8(ascii: "x"), count: max(0, target - body.count))
            if transport.send(body, on: link.id) == .sent { state.withLock { $0.sent += 1 } }
        }
    }

    /// Runs until `duration` passes or SIGINT/SIGTERM arrives; returns the exit status.
    func run() -> Int32 {
        do {
            try transport.start { [self] in handle($0) }
        } catch {
            fail("start failed: \(error)")
        }
        say("started on \(options.adapter), expecting \(options.expect) peer(s) for \(options.duration) s")
        let ticker = DispatchSource.makeTimerSource(queue: queue)
        ticker.schedule(deadline: .now() + options.interval, repeating: options.interval)
        ticker.setEventHandler { [self] in tick() }
        ticker.resume()
        let done = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { done.signal() }
            source.resume()
            sources.append(source)
        }
        _ = done.wait(timeout: .now() + options.duration)
        ticker.cancel()
        let final = state.withLock { $0 }
        transport.stop()
        let counters = transport.counters
        report(final, counters)
        let oversizeRefused = counters.refused[.oversized, default: 0]
        return final.received.keys.count >= options.expect && oversizeRefused == final.oversizeSent ? 0 : 1
    }
}
