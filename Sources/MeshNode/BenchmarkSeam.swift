import MeshProtocol

/// The verification seam for `meshbench` (docs/PERFORMANCE.md, "The relay path").
///
/// A relay checks every broadcast's origin before relaying it: its two public keys decoded and
/// checked against the self-certifying node ID (once per origin: `OriginKeyCache`), then one
/// ECDSA verification of the envelope. The signature check costs more than the rest of the
/// relay path together, so the benchmark measures the two apart. With the seam on, a
/// broadcast's ECDSA signature is **not** checked; everything else (frames, reassembly, link
/// open, envelope and body decoding, the origin keys and node ID, relay rules, budgets,
/// delivery, re-seal, split) runs as in production. Join notices and direct messages are
/// unaffected.
///
/// Only code that imports `@_spi(Benchmark) MeshNode` can turn the seam on; no configuration
/// option, control request or daemon path reaches it, and it is off in every engine by default.
@_spi(Benchmark)
extension MeshEngine {
    /// Benchmarks only: broadcasts' signatures go unchecked from now on (see above).
    public func skipBroadcastSignatureChecksForBenchmark() {
        skipsSignatureChecksForBenchmark = true
    }

    /// Benchmarks only: the engine's own origin check of `envelope` (what it does to a
    /// broadcast or join notice before relaying it), signature included whatever the seam;
    /// true when it passes.
    public func verifyForBenchmark(_ envelope: Envelope) -> Bool {
        let skipping = skipsSignatureChecksForBenchmark
        skipsSignatureChecksForBenchmark = false
        defer { skipsSignatureChecksForBenchmark = skipping }
        return (try? verify(envelope)) != nil
    }
}
