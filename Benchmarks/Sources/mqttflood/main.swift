import Glibc
import MeshCrypto

// mqttflood: a hostile publisher with broker credentials, for the MQTT bridge's flood test
// (scripts/mqtt_bridge.py) and by hand. Bounded in time, stops by itself.

let options: MQTTFloodOptions
do {
    options = try MQTTFloodOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch .help {
    print(MQTTFloodOptions.usage)
    exit(0)
} catch .usage(let reason) {
    printError("mqttflood: \(reason)\n\(MQTTFloodOptions.usage)")
    exit(64)
}

let planned = options.rate > 0 ? Int(options.rate * options.duration) + 1 : 200_000
let preparing = ContinuousClock.now
var payloads: FloodPayloads
do {
    payloads = try FloodPayloads(options: options, count: planned)
} catch {
    printError("mqttflood: cannot prepare: \(error)")
    exit(66)
}
let prepared = ContinuousClock.now - preparing

let publisher: BrokerPublisher
do {
    let suffix = (try? SecureRandom.bytes(4).map { String($0, radix: 16) }.joined()) ?? "0"
    publisher = try BrokerPublisher(host: options.host, port: options.port, clientID: "mqttflood-\(suffix)")
} catch {
    printError("mqttflood: \(error)")
    exit(69)
}

printError("mqttflood: flooding \(options.host):\(options.port) for \(options.duration) s")
let tally = Flood.run(publisher: publisher, payloads: &payloads, options: options)
let summary = FloodSummary(options: options, tally: tally, prepareSeconds: prepared)
print(options.json ? summary.json : summary.text)
exit(tally.stoppedBy == nil ? 0 : 1)
