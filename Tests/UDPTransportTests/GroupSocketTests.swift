import Glibc
import Testing
@testable import UDPTransport

/// The TTL of a received announcement, read from the kernel's control messages (`struct cmsghdr`
/// records), which the receiver must read as bounded input: a record that claims more bytes than
/// the buffer holds, or fewer than its header, ends the walk.
@Suite("Discovery group socket: TTL from control messages")
struct GroupSocketTests {
    /// One control record: length, level, type, an Int32 of data, padded to a word.
    static func record(level: Int32, type: Int32, value: Int32, claimedLength: Int? = nil) -> [UInt8] {
        let word = MemoryLayout<Int>.size
        let length = claimedLength ?? (word + 8 + 4)
        var bytes = withUnsafeBytes(of: length) { Array($0) }
        bytes += withUnsafeBytes(of: level) { Array($0) } + withUnsafeBytes(of: type) { Array($0) }
        bytes += withUnsafeBytes(of: value) { Array($0) }
        while bytes.count % word != 0 { bytes.append(0) }
        return bytes
    }

    static func ttl(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBytes { GroupSocket.ttl(in: $0) } }

    @Test func theTTLRecordIsFoundAfterAnotherOne() {
        let other = Self.record(level: Int32(IPPROTO_IP), type: IP_PKTINFO, value: 7)
        #expect(Self.ttl(Self.record(level: Int32(IPPROTO_IP), type: IP_TTL, value: 1)) == 1)
        #expect(Self.ttl(other + Self.record(level: Int32(IPPROTO_IP), type: IP_TTL, value: 64)) == 64)
    }

    @Test("Buffers without a sound TTL record give nil", arguments: [
        [UInt8](),
        Array(GroupSocketTests.record(level: Int32(IPPROTO_IP), type: IP_TTL, value: 1).prefix(10)),
        GroupSocketTests.record(level: Int32(IPPROTO_IP), type: IP_TTL, value: 1, claimedLength: 4096),
        GroupSocketTests.record(level: Int32(IPPROTO_IP), type: IP_TTL, value: 1, claimedLength: 3),
        GroupSocketTests.record(level: Int32(SOL_SOCKET), type: IP_TTL, value: 1),
    ])
    func unsoundBuffers(_ bytes: [UInt8]) {
        #expect(Self.ttl(bytes) == nil)
    }
}
