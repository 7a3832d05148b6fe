import Dispatch
import Glibc
import MeshCrypto
import Synchronization
import Testing

/// A daemon exits (SIGTERM, `exit(0)`) while Dispatch workers may be mid key exchange: OpenSSL's
/// own exit-time clean-up must not pull its locks out from under them.
@Suite("OpenSSL at process exit")
struct OpenSSLExitTests {
    /// Signatures made so far by the signing threads.
    final class Progress: Sendable {
        let signed = Atomic<Int>(0)
    }

#if compiler(>=6.2)
    /// Each run is a process of its own; with OpenSSL's clean-up, about one in eight crashed.
    @Test("A process that exits while two threads generate keys and sign exits 0", arguments: 0..<12)
    func exitWhileSigning(_ run: Int) async {
        await #expect(processExitsWith: .success) {
            try OpenSSLSetup.initialiseWithoutErrorStrings()
            let progress = Progress()
            for index in 0..<2 {
                DispatchQueue(label: "signer-\(index)").async {
                    while true {
                        guard let key = try? P256SigningKey(), (try? key.signature(for: [1, 2, 3])) != nil else { continue }
                        progress.signed.add(1, ordering: .relaxed)
                    }
                }
            }
            // Exit while both are busy: once each has had time for a signature or two.
            while progress.signed.load(ordering: .relaxed) < 4 { sched_yield() }
            exit(0)
        }
    }
#else
    @Test("A process that exits while two threads generate keys and sign exits 0", .disabled("exit tests need Swift 6.2 or later"))
    func exitWhileSigning() {}
#endif
}
