import Foundation
import Testing

/// Finds the shared Wycheproof vectors: $MESHNODE_VECTORS_DIR (the `vectors` folder or the
/// `wycheproof` folder itself), else `../shared/vectors/wycheproof` beside the repository root.
enum Wycheproof {
    static let directory: URL? = {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["MESHNODE_VECTORS_DIR"], !override.isEmpty {
            let base = URL(fileURLWithPath: override)
            candidates += [base.appendingPathComponent("wycheproof"), base]
        }
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.deletingLastPathComponent().appendingPathComponent("shared/vectors/wycheproof"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("aes_gcm_test.json").path) }
    }()

    static let missingNote: Comment =
        "Wycheproof vectors not found (../shared/vectors/wycheproof or $MESHNODE_VECTORS_DIR): skipped"

    /// Decodes one vector file.
    static func load<File: Decodable>(_ name: String, as type: File.Type) throws -> File {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try JSONDecoder().decode(File.self, from: data)
    }

    /// Prints the per-file count line the task asks for.
    static func report(_ file: String, ran: Int, valid: Int, invalid: Int, acceptable: Int, skipped: Int = 0, note: String = "") {
        var line = "Wycheproof \(file): ran \(ran) (valid \(valid), invalid \(invalid), acceptable \(acceptable))"
        if skipped > 0 { line += ", skipped by design \(skipped)\(note.isEmpty ? "" : " (\(note))")" }
        print(line)
    }
}

/// Tallies results by Wycheproof verdict and remembers failing test IDs.
struct Tally {
    var valid = 0
    var invalid = 0
    var acceptable = 0
    var skipped = 0
    var failures: [Int] = []
    var ran: Int { valid + invalid + acceptable }

    /// Records one case: `accepted` is our verdict, `correct` whether any output matched.
    mutating func record(id: Int, result: String, accepted: Bool, correct: Bool = true) {
        switch result {
        case "valid":
            valid += 1
            if !(accepted && correct) { failures.append(id) }
        case "invalid":
            invalid += 1
            if accepted { failures.append(id) }
        default:
            acceptable += 1
            if accepted && !correct { failures.append(id) }
        }
    }
}

/// Normalizes a Wycheproof private key (which may carry a sign byte or be short) to 32 bytes.
func scalar32(_ text: String) -> [UInt8] {
    let bytes = Array(hex(text).drop { $0 == 0 })
    guard bytes.count <= 32 else { return bytes }
    return [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
}

struct AEADFile: Decodable {
    struct Group: Decodable {
        let ivSize: Int
        let keySize: Int
        let tagSize: Int
        let tests: [Case]
    }
    struct Case: Decodable {
        let tcId: Int
        let key, iv, aad, msg, ct, tag, result: String
    }
    let testGroups: [Group]
}

struct ECDHFile: Decodable {
    struct Group: Decodable { let tests: [Case] }
    struct Case: Decodable {
        let tcId: Int
        let `public`, `private`, shared, result: String
    }
    let testGroups: [Group]
}

struct ECDSAFile: Decodable {
    struct Key: Decodable { let uncompressed: String }
    struct Group: Decodable {
        let publicKey: Key
        let tests: [Case]
    }
    struct Case: Decodable {
        let tcId: Int
        let msg, sig, result: String
    }
    let testGroups: [Group]
}

struct HKDFFile: Decodable {
    struct Group: Decodable { let tests: [Case] }
    struct Case: Decodable {
        let tcId: Int
        let ikm, salt, info, okm, result: String
        let size: Int
    }
    let testGroups: [Group]
}
