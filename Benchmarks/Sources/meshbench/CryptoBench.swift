import MeshCrypto
import MeshProtocol

/// One of our crypto operations, with OpenSSL's figure for the same primitive when it has one.
struct CryptoFigure: Codable {
    /// Our operation (see `CryptoBench.describe`).
    var name: String
    /// What it measures.
    var measures: String
    /// Ours, per CPU second of one core.
    var perSecond: Double
    var allocationsPerOperation: Double
    /// The `openssl speed` figure it is compared with, and which one.
    var openssl: Double?
    var opensslFigure: String?
    /// perSecond / openssl.
    var ratio: Double?
}

/// Crypto beside `openssl speed`, both measured in this run, both in CPU time.
struct CryptoReport: Codable {
    var figures: [CryptoFigure]
    var opensslSpeed: OpenSSLSpeed?
    var opensslError: String?
}

enum CryptoBench {
    static func run(_ output: Output, scale: Int, opensslSeconds: Int) throws -> CryptoReport {
        output.heading("Crypto (OpenSSL 3 through EVP), CPU time, beside `openssl speed`")
        let count = 20_000 / scale
        var figures: [CryptoFigure] = []
        func add(_ name: String, _ measures: String, _ sample: Sample, openssl: String? = nil) {
            figures.append(CryptoFigure(
                name: name, measures: measures, perSecond: sample.perCPUSecond,
                allocationsPerOperation: sample.allocationsPerOperation, openssl: nil, opensslFigure: openssl, ratio: nil))
        }

        let key = [UInt8](repeating: 0x11, count: 32)
        let aad13 = [UInt8](repeating: 0x22, count: 13)
        let block256 = [UInt8](repeating: 0x5A, count: 256)
        var boxes: [[UInt8]] = []
        boxes.reserveCapacity(count * 10)
        add("aes-256-gcm seal 256 B", "AESGCM.seal: new context and key schedule, random 12-byte nonce, 13 B AAD, 256 B, tag",
            try Timing.measure(count: count * 10) { _ in boxes.append(try AESGCM.seal(block256, key: key, aad: aad13)) },
            openssl: "aes-256-gcm -aead -bytes 256")
        add("aes-256-gcm open 256 B", "AESGCM.open of the boxes sealed above: new context and key schedule, tag checked",
            try Timing.measure(count: count * 10) { index in _ = try AESGCM.open(boxes[index], key: key, aad: aad13) },
            openssl: "aes-256-gcm -aead -decrypt -bytes 256")

        var (sender, receiver) = try CryptoBenchmark.keyedSessions()
        let envelope255 = [UInt8](repeating: 0x5A, count: 255)
        var random = SplitMix64(seed: 3)
        let id = MessageID(random: &random)
        var packets: [[UInt8]] = []
        packets.reserveCapacity(count * 10)
        add("link seal (255 B envelope)", "LinkSession.seal: nonce from its pool, pad to 256, header, 41 B AAD, AES-256-GCM on the key's kept context (key schedule made once)",
            try Timing.measure(count: count * 10) { _ in packets.append(try sender.seal(kind: .message, messageID: id, plaintext: envelope255)) },
            openssl: "aes-256-gcm -aead -bytes 256")
        add("link open (255 B envelope)", "LinkSession.open: replay window, AES-256-GCM on the key's kept context, unpad",
            try Timing.measure(count: count * 10) { index in _ = try receiver.open(kind: .message, packet: packets[index]) },
            openssl: "aes-256-gcm -aead -decrypt -bytes 256")

        // Both forms of PROTOCOL.md D6 and D14 for one envelope that pads to 256 in each (a
        // broadcast relayed twice is about 241 bytes), on fresh sessions, in this run.
        let envelope246 = [UInt8](repeating: 0x5A, count: 246)
        for opaque in [false, true] {
            var (sender, receiver) = try CryptoBenchmark.keyedSessions()
            var sealed: [[UInt8]] = []
            sealed.reserveCapacity(count * 10)
            let form = opaque ? "opaque link" : "link"
            add("\(form) seal (246 B envelope)", opaque
                ? "LinkSession.sealOpaque: counter and kind sealed, pad to 256, 23 B AAD, 284 B packet"
                : "LinkSession.seal: pad to 256, clear header, 41 B AAD, 308 B packet",
                try Timing.measure(count: count * 10) { _ in
                    sealed.append(opaque
                        ? try sender.sealOpaque(kind: MessageKind.message.rawValue, plaintext: envelope246)
                        : try sender.seal(kind: .message, messageID: id, plaintext: envelope246))
                },
                openssl: "aes-256-gcm -aead -bytes 256")
            add("\(form) open (246 B envelope)", opaque
                ? "LinkSession.openOpaque: AES-256-GCM first, then the sealed counter against the replay window, unpad, kind split off"
                : "LinkSession.open: replay window, AES-256-GCM, unpad",
                try Timing.measure(count: count * 10) { index in
                    if opaque { _ = try receiver.openOpaque(packet: sealed[index]) } else { _ = try receiver.open(kind: .message, packet: sealed[index]) }
                },
                openssl: "aes-256-gcm -aead -decrypt -bytes 256")
        }

        let local = try NodeIdentity.generate()
        let remote = try NodeIdentity.generate()
        let peer = remote.agreementPublicKey
        add("ecdh", "P256KeyAgreementKey.sharedSecret(with:) of a parsed peer key: peer set on the key's kept context, derive",
            try Timing.measure(count: count) { _ in _ = try local.agreementKey.sharedSecret(with: peer) },
            openssl: "ecdhp256")
        let compressed = peer.compressed
        add("public key decode (compressed)", "P256PublicKey(compressed:): import (decompress, coordinate and curve checks), export 04 ‖ x ‖ y",
            try Timing.measure(count: count / 2) { _ in _ = try P256PublicKey(compressed: compressed) })
        let uncompressed = peer.x963
        add("ecdh from wire bytes (X9.63)", "decode the peer's 65-byte key as a hello carries it (import: coordinate and curve checks), then ecdh",
            try Timing.measure(count: count / 4) { _ in
                _ = try local.agreementKey.sharedSecret(with: try P256PublicKey(x963: uncompressed))
            },
            openssl: "ecdhp256")
        add("ecdh from wire bytes", "decode the peer's compressed key as above, then ecdh",
            try Timing.measure(count: count / 4) { _ in
                _ = try local.agreementKey.sharedSecret(with: try P256PublicKey(compressed: compressed))
            },
            openssl: "ecdhp256")
        var signature: [UInt8] = []
        add("ecdsa sign (256 B message)", "P256SigningKey.signature(for:): SHA-256 of 256 B, sign, DER to raw r‖s",
            try Timing.measure(count: count) { _ in signature = try local.signingKey.signature(for: block256) },
            openssl: "ecdsap256 sign")
        let signer = local.signingPublicKey
        var failures = 0
        add("ecdsa verify (256 B message)", "P256PublicKey.isValidSignature: raw r‖s to DER, SHA-256 of 256 B, verify",
            Timing.measure(count: count) { _ in if !signer.isValidSignature(signature, for: block256) { failures += 1 } },
            openssl: "ecdsap256 verify")
        guard failures == 0 else { throw BenchFailure.wrongResult("\(failures) signatures did not verify") }
        let secret = [UInt8](repeating: 7, count: 32)
        add("hkdf-sha256 (64 B from 32 B)", "HKDFSHA256.deriveKey",
            try Timing.measure(count: count * 10) { _ in
                _ = try HKDFSHA256.deriveKey(inputKeyMaterial: secret, salt: LinkKeys.salt, info: block256, outputByteCount: 64)
            })

        var report = CryptoReport(figures: figures, opensslSpeed: nil, opensslError: nil)
        do {
            output.line("  running openssl speed (\(opensslSeconds) s per algorithm)...")
            let speed = try OpenSSLSpeed.measure(seconds: opensslSeconds)
            report.opensslSpeed = speed
            for index in report.figures.indices {
                guard let figure = report.figures[index].opensslFigure else { continue }
                let theirs: Double
                switch figure {
                case "ecdhp256": theirs = speed.ecdhPerSecond
                case "ecdsap256 sign": theirs = speed.ecdsaSignPerSecond
                case "ecdsap256 verify": theirs = speed.ecdsaVerifyPerSecond
                case "aes-256-gcm -aead -bytes 256": theirs = speed.gcmSeal256PerSecond
                default: theirs = speed.gcmOpen256PerSecond
                }
                report.figures[index].openssl = theirs
                report.figures[index].ratio = report.figures[index].perSecond / theirs
            }
        } catch {
            report.opensslError = "\(error)"
        }
        output.line("  " + "ours".padding(toLength: 44, withPad: " ", startingAt: 0) + " per s    allocs/op  openssl speed   ours/openssl")
        for figure in report.figures {
            var line = figure.name.padding(toLength: 46, withPad: " ", startingAt: 0) + " "
                + formatRate(figure.perSecond).padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(rounded(figure.allocationsPerOperation, 1)).padding(toLength: 11, withPad: " ", startingAt: 0)
            if let theirs = figure.openssl, let ratio = figure.ratio {
                line += formatRate(theirs).padding(toLength: 16, withPad: " ", startingAt: 0) + "\(rounded(ratio * 100, 1)) %"
            }
            output.line(line)
        }
        if let error = report.opensslError { output.line("  openssl speed failed: \(error)") }
        return report
    }
}

/// A benchmark that saw a wrong result (its figure would mean nothing).
enum BenchFailure: Error {
    /// What went wrong.
    case wrongResult(String)
}
