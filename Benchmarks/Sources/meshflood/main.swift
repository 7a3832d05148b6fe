import Glibc
import MeshCrypto

// meshflood: a hostile but protocol-correct neighbour for measuring floods (issue 11).
// Loopback only, bounded in time, stops by itself.

let options: FloodOptions
do {
    options = try FloodOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch .help {
    print(FloodOptions.usage)
    exit(0)
} catch .usage(let reason) {
    printError("meshflood: \(reason)\n\(FloodOptions.usage)")
    exit(64)
}

let link: NeighbourLink
do {
    link = try NeighbourLink(identity: .generate(), name: options.name, target: options.target, port: options.port)
    try link.start()
} catch {
    printError("meshflood: cannot start: \(error)")
    exit(71)
}

let linking = ContinuousClock.now
while !link.isReady && ContinuousClock.now - linking < .milliseconds(Int64(options.linkTimeout * 1000)) {
    WallClock.sleep(.milliseconds(10))
}
guard link.isReady else {
    printError("meshflood: no ready link to \(options.target) within \(options.linkTimeout) s")
    link.stop()
    exit(69)
}
let readyAfter = ContinuousClock.now - linking

var flooder = Flooder(link: link, options: options)
flooder.idle(seconds: options.quietBefore)
flooder.run()
flooder.idle(seconds: options.quietAfter)
link.stop()

let summary = FloodSummary(
    options: options, nodeID: link.identity.nodeID.hex,
    readyAfterSeconds: Double(readyAfter.components.seconds) + Double(readyAfter.components.attoseconds) / 1e18,
    flood: flooder.tally, link: link.tally, transportFramesSent: link.framesSentByTransport)
print(options.json ? summary.json : summary.text)
