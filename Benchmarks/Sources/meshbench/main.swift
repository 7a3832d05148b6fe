// meshbench: release-build benchmarks of the hot paths. Run with
//   swift run -c release --package-path Benchmarks meshbench            (a text table)
//   swift run -c release --package-path Benchmarks meshbench --json     (one JSON document on stdout; the table on stderr)
// Rates are per CPU second of the measuring thread; ratios are measured in the same run.
// docs/PERFORMANCE.md says what each figure measures.
import CAllocationCounter
import Foundation

/// Everything one run measured.
struct BenchReport: Codable {
    var tool = "meshbench"
    var date: String
    var host: String
    var cores: Int
    var allocationCounter: String
    var fragmenter: FragmenterReport?
    var seenCache: SeenCacheReport?
    var crypto: CryptoReport?
    var relayPath: RelayReport?
    var simulator: SimulatorReport?
}

let options: Options
do {
    options = try Options(arguments: CommandLine.arguments)
} catch UsageError.help {
    print(Options.usage)
    exit(0)
} catch UsageError.badValue(let problem) {
    FileHandle.standardError.write(Data("meshbench: \(problem)\n\(Options.usage)\n".utf8))
    exit(64)
}
let output = Output(toStandardError: options.json)
let scale = options.quick ? 10 : 1
guard allocation_counter_active() == 1 || { _ = malloc(1); return allocation_counter_active() == 1 }() else {
    FileHandle.standardError.write(Data("meshbench: the allocation counter is not in effect\n".utf8))
    exit(70)
}
do {
    if options.runs("relay-profile") && !options.only.isEmpty {
        try RelayBench.profile(output, mtu: 247, messages: 50_000 / scale)
        exit(0)
    }
    if options.runs("relay-profile-510") && !options.only.isEmpty {
        try RelayBench.profile(output, mtu: 510, messages: 50_000 / scale)
        exit(0)
    }
    let fragmenter = options.runs("fragmenter") ? FragmenterBench.run(output, scale: scale) : nil
    let seenCache = options.runs("seen") ? SeenCacheBench.run(output, scale: scale) : nil
    let crypto = options.runs("crypto")
        ? try CryptoBench.run(output, scale: scale, opensslSeconds: options.quick ? 1 : options.opensslSeconds) : nil
    let relayPath = options.runs("relay") ? try RelayBench.run(output, scale: scale) : nil
    let simulator = options.runs("simulator") ? try SimulatorBench.run(output, scale: scale) : nil
    let report = BenchReport(
        date: ISO8601DateFormatter().string(from: Date()), host: ProcessInfo.processInfo.hostName,
        cores: ProcessInfo.processInfo.activeProcessorCount,
        allocationCounter: "malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc, pvalloc interposed in the executable (CAllocationCounter), all threads",
        fragmenter: fragmenter, seenCache: seenCache, crypto: crypto, relayPath: relayPath, simulator: simulator)
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
} catch {
    FileHandle.standardError.write(Data("meshbench: \(error)\n".utf8))
    exit(1)
}
