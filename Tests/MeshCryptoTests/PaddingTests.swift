import Testing
@testable import MeshCrypto

@Suite("Padding and replay window")
struct PaddingTests {
    @Test("Bucket lengths", arguments: [
        (0, 32), (31, 32), (32, 64), (100, 128), (1000, 1024), (4095, 4096), (4096, 8192), (5000, 8192), (8191, 8192),
        (8192, 12288),
    ])
    func bucketLength(_ pair: (Int, Int)) {
        #expect(Padding.paddedLength(for: pair.0, policy: .buckets) == pair.1)
        #expect(Padding.paddedLength(for: pair.0, policy: .minimal) == pair.0 + 1)
    }

    @Test("Pad then unpad returns the input for many lengths and both policies")
    func roundTrip() throws {
        for length in [0, 1, 30, 31, 32, 33, 127, 128, 4095, 4096, 10_000] {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 | 1) }
            for policy in [PaddingPolicy.buckets, .minimal] {
                let padded = try Padding.pad(plaintext, policy: policy)
                #expect(padded.count == Padding.paddedLength(for: length, policy: policy))
                #expect(try Padding.unpad(padded) == plaintext)
            }
        }
        #expect(try Padding.unpad([0x00, 0x80, 0x00]) == [0x00])
    }

    @Test("Malformed padding is rejected", arguments: [[], [0x00], [0x00, 0x00], [0x01], [0x80, 0x01], [0x7F, 0x00]] as [[UInt8]])
    func malformed(_ padded: [UInt8]) {
        #expect(throws: CryptoError.badPadding) { try Padding.unpad(padded) }
    }

    @Test("The cap is respected: padding shrinks to fit, a plaintext too long is a typed error")
    func cap() throws {
        #expect(Padding.paddedLength(for: 5000, policy: .buckets, limit: 6000) == 6000)
        #expect(try Padding.pad([UInt8](repeating: 1, count: 5999), policy: .buckets, limit: 6000).count == 6000)
        #expect(throws: CryptoError.tooLarge(field: "padded plaintext", size: 6001, limit: 6000)) {
            try Padding.pad([UInt8](repeating: 1, count: 6000), policy: .buckets, limit: 6000)
        }
    }

    @Test("Replay window: duplicates, reordering within the window, too-old, zero")
    func replayWindow() {
        var window = ReplayWindow(size: 64)
        #expect(!window.isFresh(0))
        for counter: UInt64 in [1, 2, 3, 5] {
            #expect(window.isFresh(counter))
            window.accept(counter)
        }
        #expect(!window.isFresh(3))
        #expect(window.isFresh(4))
        window.accept(4)
        #expect(!window.isFresh(4))
        window.accept(100)
        #expect(!window.isFresh(36))
        #expect(window.isFresh(37))
        #expect(!window.isFresh(100))
        window.accept(10_000)
        #expect(window.isFresh(9_999) && !window.isFresh(10_000) && !window.isFresh(9_936))
    }

    @Test("Replay window sizes are configurable", arguments: [1, 63, 64, 65, 200])
    func windowSizes(_ size: Int) {
        var window = ReplayWindow(size: size)
        window.accept(1_000)
        #expect(window.isFresh(1_000 - UInt64(size) + 1) == (size > 1))
        #expect(!window.isFresh(1_000 - UInt64(size)))
        for counter in (1_000 - UInt64(size) + 1)..<1_000 { window.accept(counter) }
        #expect((1_000 - UInt64(size) + 1...1_000).allSatisfy { !window.isFresh($0) })
    }

    @Test("A window states exactly what it accepted in the 64 counters below its highest", arguments: [1, 64, 200])
    func acknowledgement(_ size: Int) {
        var window = ReplayWindow(size: size)
        #expect(window.acknowledgement() == (highest: 0, received: 0))
        var accepted: Set<UInt64> = []
        // 1…300 with every counter divisible by 3 or 7 missing; each accepted while it is fresh.
        for counter: UInt64 in 1...300 where counter % 3 != 0 && counter % 7 != 0 && window.isFresh(counter) {
            window.accept(counter)
            accepted.insert(counter)
            let (highest, received) = window.acknowledgement()
            #expect(highest == counter)
            for offset: UInt64 in 0..<64 where highest > offset + 1 {
                let named = received & (1 << offset) != 0
                #expect(named == accepted.contains(highest - 1 - offset), "counter \(highest - 1 - offset) at highest \(highest)")
            }
            #expect(highest > 64 || received >> max(0, highest - 1) == 0, "no bit for counters below 1")
        }
        // A late counter within the window fills its bit.
        if size >= 64 {
            window.accept(297)
            #expect(window.acknowledgement().received & (1 << 1) != 0)
        }
    }
}
