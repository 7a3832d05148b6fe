import Foundation

/// Figures from `openssl speed -mr` run as a subprocess in the same process run.
///
/// What it measures (OpenSSL 3.0 apps/speed.c), per second of the process's **user CPU time**:
/// - ECDSA P-256 sign / verify: `EVP_PKEY_sign` / `EVP_PKEY_verify` of a 20-byte buffer taken
///   as the digest, with one `EVP_PKEY_CTX` prepared before the loop (no hashing, no context
///   set-up, no signature encoding).
/// - ECDH P-256: `EVP_PKEY_derive` alone, with a context prepared once (key and peer set,
///   the peer checked once, before the loop).
/// - AES-256-GCM `-aead -bytes 256`: per operation, a new IV into a prepared context (the key
///   schedule is made once), 13 bytes of AAD, 256 bytes through Update, Final (and the tag);
///   with `-decrypt` the same with a tag set before Final.
struct OpenSSLSpeed: Codable {
    /// The `openssl version` line.
    var version: String
    /// The command lines run.
    var commands: [String]
    var ecdsaSignPerSecond: Double
    var ecdsaVerifyPerSecond: Double
    var ecdhPerSecond: Double
    var gcmSeal256PerSecond: Double
    var gcmOpen256PerSecond: Double

    /// Why `openssl speed` gave nothing usable.
    enum Failure: Error {
        /// The binary could not be started or exited non-zero.
        case run(String)
        /// Its output lacked a figure.
        case parse(String)
    }

    static func measure(seconds: Int) throws -> OpenSSLSpeed {
        let version = try run(["version"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let pkiArguments = ["speed", "-mr", "-seconds", "\(seconds)", "ecdsap256", "ecdhp256"]
        let sealArguments = ["speed", "-mr", "-seconds", "\(seconds)", "-bytes", "256", "-evp", "aes-256-gcm", "-aead"]
        let openArguments = sealArguments + ["-decrypt"]
        let pki = try run(pkiArguments)
        let seal = try run(sealArguments)
        let open = try run(openArguments)
        // +F4:<index>:<bits>:<sign/s>:<verify/s> and +F5:<index>:<bits>:<ecdh/s>:<seconds per op>
        let ecdsa = try fields(pki, prefix: "+F4:")
        let ecdh = try fields(pki, prefix: "+F5:")
        guard ecdsa.count >= 5, ecdh.count >= 4, let sign = Double(ecdsa[3]), let verify = Double(ecdsa[4]),
            let derive = Double(ecdh[3])
        else { throw Failure.parse("ECDSA/ECDH lines") }
        return OpenSSLSpeed(
            version: version, commands: [pkiArguments, sealArguments, openArguments].map { (["openssl"] + $0).joined(separator: " ") },
            ecdsaSignPerSecond: sign, ecdsaVerifyPerSecond: verify, ecdhPerSecond: derive,
            gcmSeal256PerSecond: try bytesPerSecond(seal) / 256, gcmOpen256PerSecond: try bytesPerSecond(open) / 256)
    }

    /// `+F:<index>:AES-256-GCM:<bytes/s>` for the one size run.
    private static func bytesPerSecond(_ output: String) throws -> Double {
        let parts = try fields(output, prefix: "+F:")
        guard parts.count >= 4, let rate = Double(parts[3]) else { throw Failure.parse("+F: line") }
        return rate
    }

    private static func fields(_ output: String, prefix: String) throws -> [Substring] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
            throw Failure.parse("no \(prefix) line")
        }
        return line.split(separator: ":", omittingEmptySubsequences: false)
    }

    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure.run("openssl: \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure.run("openssl \(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}
