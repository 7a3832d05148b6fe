import Testing
@testable import MeshConfig

@Suite("[privacy] cover_interval")
struct PrivacyConfigTests {
    @Test("Off by default; 0 or 1 s to 1 h accepted", arguments: [("0s", 0), ("1s", 1), ("10s", 10), ("1h", 3600)])
    func accepted(text: String, seconds: Int64) throws {
        #expect(DaemonSettings().privacy.coverInterval == .zero)
        let config = try ConfigLoader.parse("[privacy]\ncover_interval = \(text)\n", file: "test.conf")
        #expect(config.privacy.coverInterval == .seconds(seconds))
    }

    @Test("Below the 1 s floor, above 1 h, or not a duration: refused naming the key", arguments: ["500ms", "999ms", "2h", "fast"])
    func refused(text: String) {
        do {
            _ = try ConfigLoader.parse("[privacy]\ncover_interval = \(text)\n", file: "test.conf")
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.line == 2)
            #expect("\(error)".contains("cover_interval"))
        }
    }
}
