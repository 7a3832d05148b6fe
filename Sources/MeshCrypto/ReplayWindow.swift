/// A sliding-window replay filter over 64-bit packet counters (as in IPsec/DTLS).
///
/// Counter 0 is never valid. The newest accepted counter is `highest`; a counter is fresh if
/// it is newer, or within `size` below it and not yet seen. Check with `isFresh` before
/// authenticating and `accept` only after, so forged packets cannot move the window.
struct ReplayWindow: Sendable, Equatable {
    /// The default window, in packets.
    static let defaultSize = 64
    /// The largest window allowed.
    static let maxSize = 4096

    /// How many counters below `highest` are still accepted once.
    let size: Int
    /// The newest counter accepted, 0 before the first.
    private(set) var highest: UInt64 = 0
    /// Seen flags in a ring indexed by counter modulo the ring's bit count.
    private var ring: [UInt64]

    /// Creates a window of `size` packets, clamped to 1...maxSize.
    init(size: Int = defaultSize) {
        self.size = min(max(size, 1), Self.maxSize)
        // One word more than the window needs: the 64 counters below `highest` stay exact for
        // `acknowledgement()`, whatever the window's size.
        ring = [UInt64](repeating: 0, count: (self.size + 63) / 64 + 1)
    }

    /// True if `counter` has not been accepted and is not too old.
    func isFresh(_ counter: UInt64) -> Bool {
        guard counter > 0 else { return false }
        if counter > highest { return true }
        guard highest - counter < UInt64(size) else { return false }
        return !isSet(counter)
    }

    /// Records `counter` as accepted; call only after `isFresh` and successful authentication.
    mutating func accept(_ counter: UInt64) {
        if counter > highest {
            let advance = counter - highest
            let ringBits = UInt64(ring.count * 64)
            if advance >= ringBits {
                for index in ring.indices { ring[index] = 0 }
            } else {
                var cleared = highest + 1
                while cleared <= counter {
                    clear(cleared)
                    cleared += 1
                }
            }
            highest = counter
        }
        set(counter)
    }

    /// The highest accepted counter, and bit `i` set when counter `highest − 1 − i` was accepted
    /// (i = 0 …< 64; counters below 1 never are). A link acknowledgement carries both (PROTOCOL.md D12).
    func acknowledgement() -> (highest: UInt64, received: UInt64) {
        var received: UInt64 = 0
        var offset: UInt64 = 0
        while offset < 64, highest > offset + 1 {
            if isSet(highest - 1 - offset) { received |= 1 << offset }
            offset += 1
        }
        return (highest, received)
    }

    private func position(_ counter: UInt64) -> (word: Int, bit: UInt64) {
        let index = counter % UInt64(ring.count * 64)
        return (Int(index / 64), index % 64)
    }

    private func isSet(_ counter: UInt64) -> Bool {
        let (word, bit) = position(counter)
        return ring[word] & (1 << bit) != 0
    }

    private mutating func set(_ counter: UInt64) {
        let (word, bit) = position(counter)
        ring[word] |= 1 << bit
    }

    private mutating func clear(_ counter: UInt64) {
        let (word, bit) = position(counter)
        ring[word] &= ~(1 << bit)
    }
}
