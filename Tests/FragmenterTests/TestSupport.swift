import MeshProtocol
@testable import Fragmenter

/// Reproducible random test input from the package's one SplitMix64.
extension SplitMix64 {
    mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(UInt8(truncatingIfNeeded: next())) }
        return out
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// A random source that replays scripted transfer IDs (the generator's upper 32 bits), cycling.
struct ScriptedIDs: RandomNumberGenerator, Sendable {
    private let ids: [UInt32]
    private var index = 0

    init(_ ids: [UInt32]) { self.ids = ids }

    mutating func next() -> UInt64 {
        defer { index = (index + 1) % ids.count }
        return UInt64(ids[index]) << 32 | 0xDEAD_BEEF
    }
}

/// Builds one raw frame from header fields and a slice (no validation, for bad-input tests).
func rawFrame(kind: UInt8 = 0x02, id: UInt32, seq: UInt16, total: UInt16, slice: [UInt8]) -> [UInt8] {
    FrameHeader(kind: kind, transferID: id, sequence: seq, total: total).bytes + slice
}

/// A frame whose slice is `length` copies of `fill`.
func rawFrame(kind: UInt8 = 0x02, id: UInt32, seq: UInt16, total: UInt16, length: Int, fill: UInt8 = 0xAB) -> [UInt8] {
    rawFrame(kind: kind, id: id, seq: seq, total: total, slice: [UInt8](repeating: fill, count: length))
}

/// Lowercase hex, for comparing frames with the protocol document.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = Array("0123456789abcdef")
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
    }.joined()
}

/// Seconds as a `Duration` on the injected clock.
func at(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }
