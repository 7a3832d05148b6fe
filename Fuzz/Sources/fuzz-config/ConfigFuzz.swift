import Foundation
import FuzzSupport
import MeshConfig

/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_config_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: configSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// Parses the input as meshnoded.conf, applies it to the defaults and validates it as the loader
/// does. Statements must carry increasing line numbers; a configuration that passes must render
/// to text that parses and validates back to the same value, and renders the same again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    guard let statements = try? ConfigFileParser.parse(bytes, file: "fuzz.conf") else { return 0 }
    fuzzCheck(zip(statements, statements.dropFirst()).allSatisfy { $0.line < $1.line }, "line numbers out of order")
    fuzzCheck(statements.allSatisfy { $0.line >= 1 }, "a statement before line 1")
    var config = DaemonSettings()
    do throws(ConfigError) {
        try ConfigLoader.apply(statements, file: "fuzz.conf", to: &config)
        try ConfigLoader.validate(config, file: "fuzz.conf")
    } catch {
        _ = error.description
        return 0
    }
    let text = config.rendered()
    do throws(ConfigError) {
        let again = try ConfigLoader.parse(text, file: "rendered.conf")
        fuzzCheck(again == config, "rendered configuration parses to another value:\n\(text)")
        fuzzCheck(again.rendered() == text, "rendering is not stable:\n\(text)")
    } catch {
        fuzzCheck(false, "rendered configuration does not load (\(error)):\n\(text)")
    }
    return 0
}

/// The shipped example configuration, the rendered defaults, and a UDP node's file.
func configSeeds() -> [(name: String, bytes: [UInt8])] {
    let example = (try? Data(contentsOf: URL(fileURLWithPath: "../systemd/meshnoded.conf.example"))).map { Array($0) }
    let udp = """
        # a UDP test node
        [node]
        name = Kitchen
        log_level = debug
        [transport]
        kind = udp
        [udp]
        bind = 127.0.0.1
        port = 47001
        neighbours = 127.0.0.1:47002, 127.0.0.1:47003
        """
    return [("defaults-rendered", Array(DaemonSettings().rendered().utf8)), ("udp-node", Array(udp.utf8))]
        + (example.map { [("meshnoded.conf.example", $0)] } ?? [])
}
