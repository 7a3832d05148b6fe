import CMosquitto

/// Publishes prepared messages at a paced rate for a bounded time: message i is due at
/// start + i / rate. Behind schedule it does not sleep; while the socket has not taken what
/// libmosquitto holds, it waits for it (so memory stays bounded and the rate is what the broker takes).
enum Flood {
    /// Floods through `publisher` as `options` say, taking payloads from `payloads`.
    static func run(publisher: BrokerPublisher, payloads: inout FloodPayloads, options: MQTTFloodOptions) -> FloodTally {
        var tally = FloodTally()
        let start = ContinuousClock.now
        let end = start + .milliseconds(Int64(options.duration * 1000))
        var index = 0
        while ContinuousClock.now < end {
            if options.rate > 0 {
                let due = start + .nanoseconds(Int64(Double(index) / options.rate * 1e9))
                if due > ContinuousClock.now {
                    publisher.service()
                    WallClock.sleep(min(due, end) - ContinuousClock.now)
                    continue
                }
            }
            if publisher.isBacklogged {
                publisher.service(milliseconds: 1)
                if publisher.isBacklogged {
                    tally.backlogWaits += 1
                    continue
                }
            }
            let shape = options.mix.shape(at: index)
            let publication = payloads.take(shape)
            let code = publisher.publish(topic: publication.topic, payload: publication.payload)
            guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                tally.failed += 1
                tally.stoppedBy = BrokerPublisher.describe(code)
                break
            }
            tally.sent[shape, default: 0] += 1
            index += 1
            if index % 256 == 0 { publisher.service() }
        }
        publisher.drain(seconds: 5)
        let elapsed = ContinuousClock.now - start
        tally.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return tally
    }
}
