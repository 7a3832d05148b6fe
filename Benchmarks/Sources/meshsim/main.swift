// meshsim: the mesh at scale (issue 12). Builds a topology of N real engines with real crypto
// on the simulator's virtual clock, sends messages from random nodes and reports delivery
// within the hop limit, transmissions per delivery, latency, control traffic and wall time.
// Build with `swift build -c release --package-path Benchmarks --product meshsim`; see docs/PERFORMANCE.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

let options: MeshScaleOptions
do {
    options = try MeshScaleOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    print("meshsim: \(error)\n\(MeshScaleOptions.usage)")
    exit(2)
}
let result: MeshScaleResult
do {
    result = try MeshScaleRun(options: options).run()
} catch {
    print("meshsim: \(error)")
    exit(1)
}
if options.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(result)
    print(String(decoding: data, as: UTF8.self))
} else {
    print(MeshScaleReport(result).text)
}
