import CFuzzerDriver
import Foundation

/// libFuzzer's `TestOneInput` callback type.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer's driver with the process arguments and returns its exit status; or, when the
/// arguments are `--write-seeds DIR`, writes the target's seed inputs into DIR and returns 0.
///
/// SwiftPM links each executable with `main` set to `<module>_main`, so libFuzzer's own `main` is
/// never pulled in; each target's `<module>_main` calls this instead.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    seeds: () -> [(name: String, bytes: [UInt8])], _ test: FuzzTestOneInput
) -> CInt {
    if argc == 3, let flag = argv[1], String(cString: flag) == "--write-seeds", let dir = argv[2] {
        return writeSeeds(seeds(), to: String(cString: dir))
    }
    var count = argc
    var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &vector, test)
}

private func writeSeeds(_ seeds: [(name: String, bytes: [UInt8])], to dir: String) -> CInt {
    do {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for seed in seeds {
            try Data(seed.bytes).write(to: URL(fileURLWithPath: dir).appendingPathComponent(seed.name))
        }
        print("wrote \(seeds.count) seeds to \(dir)")
        return 0
    } catch {
        print("cannot write seeds to \(dir): \(error)")
        return 1
    }
}

/// Bytes from a hex string; whitespace is skipped (for seeds copied from docs/PROTOCOL.md).
public func hexBytes(_ text: String) -> [UInt8] {
    let digits = text.unicodeScalars.compactMap { UInt8(String($0), radix: 16) }
    return stride(from: 0, to: digits.count - 1, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
}
