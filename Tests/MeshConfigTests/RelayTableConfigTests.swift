import Testing
@testable import MeshConfig

@Suite("[relay] hop limits")
struct RelayTableConfigTests {
    @Test("Link-local kinds can only be 0; a relayed heartbeat is refused naming its line",
          arguments: ["ttl.heartbeat", "ttl.key_exchange", "ttl.profile"])
    func linkLocalKindsStayLocal(key: String) {
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[relay]\n\(key) = 1\n", file: "test.conf") }
        do {
            _ = try ConfigLoader.parse("[relay]\n\(key) = 1\n", file: "test.conf")
        } catch {
            #expect(error.line == 2)
            #expect("\(error)".contains(key))
        }
    }

    @Test("Messages and join notices take limits up to 16")
    func relayedKinds() throws {
        let config = try ConfigLoader.parse("[relay]\nttl.message = 5\nttl.join = 16\n", file: "test.conf")
        #expect(config.relay.ttlMessage == 5)
        #expect(config.relay.ttlJoin == 16)
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[relay]\nttl.message = 17\n", file: "test.conf") }
    }
}
