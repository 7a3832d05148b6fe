import Glibc
import MeshProtocol

/// Envelopes M sent, kept in a file so a later run can send the very same ones again
/// (`--record FILE`, then `--mode resend --from FILE`): each as a 4-byte big-endian length and
/// the encoded envelope. Reading is bounded (`maxBytes`, `maxEnvelopes`, 65,536 bytes each).
enum EnvelopeRecording {
    /// The largest file read.
    static let maxBytes = 16 << 20
    /// The most envelopes read.
    static let maxEnvelopes = 100_000

    /// Appends `envelope` to the file at `path` (created 0600); false when it could not be written.
    static func append(_ envelope: Envelope, to path: String) -> Bool {
        let encoded = envelope.encoded()
        var bytes = withUnsafeBytes(of: UInt32(encoded.count).bigEndian) { Array($0) }
        bytes += encoded
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }

    /// The envelopes of the file at `path`, in order; nil when it cannot be read or is malformed.
    static func read(from path: String) -> [Envelope]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard count <= maxBytes else { return nil }
        var envelopes: [Envelope] = []
        var offset = 0
        while offset < count {
            guard offset + 4 <= count, envelopes.count < maxEnvelopes else { return nil }
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length <= 65_536, offset + length <= count,
                  let envelope = try? Envelope(decoding: bytes[offset..<(offset + length)])
            else { return nil }
            envelopes.append(envelope)
            offset += length
        }
        return envelopes
    }
}
