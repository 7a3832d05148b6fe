import MeshProtocol

/// The verification seam for `meshbench` (docs/PERFORMANCE.md, "The relay path").
///
/// A relay checks every broadcast's origin before relaying it: two public keys decoded and
/// checked against the self-certifying node ID, then one ECDSA verification. That public-key
/// work costs far more than the rest of the relay path, so the benchmark measures the two
/// apart. With the seam on, a broadcast's origin keys are checked once per origin (the first
/// time, fully) and then taken from a one-entry memo, and its signature is **not** checked;
/// everything else (frames, reassembly, link open, envelope and body decoding, relay rules,
/// budgets, delivery, re-seal, split) runs as in production. Join notices and direct messages
/// are unaffected.
///
/// Only code that imports `@_spi(Benchmark) MeshNode` can turn the seam on; no configuration
/// option, control request or daemon path reaches it, and it is off in every engine by default.
@_spi(Benchmark)
extension MeshEngine {
    /// Benchmarks only: broadcasts skip their public-key checks from now on (see above).
    public func skipBroadcastPublicKeyChecksForBenchmark() {
        benchmarkOriginKeys = BenchmarkOriginKeys()
    }

    /// Benchmarks only: the engine's own origin check of `envelope` (what it does to a
    /// broadcast or join notice before relaying it), whatever the seam; true when it passes.
    public func verifyForBenchmark(_ envelope: Envelope) -> Bool {
        let memo = benchmarkOriginKeys
        benchmarkOriginKeys = nil
        defer { benchmarkOriginKeys = memo }
        return (try? verify(envelope)) != nil
    }
}

/// The seam's memo: the last origin's checked keys.
final class BenchmarkOriginKeys {
    private var last: (origin: NodeID, signing: [UInt8], agreement: [UInt8], keys: OriginKeys)?

    /// The keys of `origin` from `body`: fully checked unless they are the last ones checked.
    func keys(for body: ChatBody, origin: NodeID) throws -> OriginKeys {
        if let last, last.origin == origin, last.signing == body.signingKey, last.agreement == body.agreementKey {
            return last.keys
        }
        let keys = try OriginKeys(body: body, origin: origin)
        last = (origin, body.signingKey, body.agreementKey, keys)
        return keys
    }
}
