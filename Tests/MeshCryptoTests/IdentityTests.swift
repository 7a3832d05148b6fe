import Foundation
import MeshProtocol
import Testing
@testable import MeshCrypto

@Suite("Node identity and identity store")
struct IdentityTests {
    @Test("Node ID is the first 16 bytes of SHA-256(signing ‖ agreement); short ID and fingerprint")
    func nodeID() throws {
        let identity = try NodeIdentity.generate()
        let digest = try SHA256Digest.hash(identity.signingPublicKey.x963 + identity.agreementPublicKey.x963)
        #expect(identity.nodeID.bytes == Array(digest.prefix(16)))
        #expect(try NodeIdentity.deriveNodeID(
            signingKey: identity.signingPublicKey.x963, agreementKey: identity.agreementPublicKey.x963) == identity.nodeID)
        #expect(identity.shortID == String(identity.nodeID.hex.prefix(8)))
        let blocks = identity.fingerprint.split(separator: " ")
        #expect(blocks.count == 6 && blocks.allSatisfy { $0.count == 5 && $0.allSatisfy(\.isNumber) })
        #expect(throws: CryptoError.invalidLength(field: "X9.63 public key", expected: 65, actual: 33)) {
            try NodeIdentity.deriveNodeID(signingKey: identity.signingPublicKey.compressed, agreementKey: identity.agreementPublicKey.x963)
        }
    }

    @Test("The profile carries the identity's ID and keys")
    func profile() throws {
        let identity = try NodeIdentity.generate()
        let profile = identity.profile(displayName: "relay-1", icon: "📡", role: .relay)
        #expect(profile.nodeID == identity.nodeID)
        #expect(profile.signingKey == identity.signingPublicKey.x963)
        #expect(profile.agreementKey == identity.agreementPublicKey.x963)
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("meshcrypto-\(UUID().uuidString)").path
    }

    @Test("loadOrCreate creates a 0600 key file once, then loads the same identity")
    func createThenLoad() throws {
        let directory = Self.temporaryDirectory() + "/state"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = IdentityStore(directory: directory)
        #expect(try store.load() == nil)
        let created = try store.loadOrCreate()
        let attributes = try FileManager.default.attributesOfItem(atPath: store.keyFilePath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 101)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["identity.key"])
        let loaded = try store.loadOrCreate()
        #expect(loaded.nodeID == created.nodeID)
        #expect(try loaded.signingKey.rawRepresentation() == created.signingKey.rawRepresentation())
        #expect(try loaded.agreementKey.rawRepresentation() == created.agreementKey.rawRepresentation())
    }

    /// One way to damage a valid key file, and the problem it must be reported as.
    struct Damage: Sendable, CustomStringConvertible {
        let description: String
        let apply: @Sendable ([UInt8]) -> [UInt8]
        let problem: IdentityFileProblem
    }

    static let damages: [Damage] = [
        Damage(description: "empty", apply: { _ in [] }, problem: .wrongLength(0)),
        Damage(description: "truncated", apply: { Array($0.prefix(100)) }, problem: .wrongLength(100)),
        Damage(description: "extended", apply: { $0 + [0] }, problem: .wrongLength(102)),
        Damage(description: "bad magic", apply: { flipping($0, at: 0) }, problem: .badMagic),
        Damage(description: "version 2", apply: { var b = $0; b[4] = 2; return b }, problem: .unsupportedVersion(2)),
        Damage(description: "flipped scalar bit", apply: { flipping($0, at: 20) }, problem: .checksumMismatch),
        Damage(description: "flipped checksum bit", apply: { flipping($0, at: 100) }, problem: .checksumMismatch),
        Damage(
            description: "zero scalar, valid checksum",
            apply: { bytes in
                let body = Array(bytes[0..<5]) + [UInt8](repeating: 0, count: 32) + Array(bytes[37..<69])
                return body + ((try? SHA256Digest.hash(body)) ?? [])
            },
            problem: .invalidKey(.invalidPrivateKey)),
    ]

    @Test("A damaged key file is a typed error and is never replaced", arguments: damages)
    func damagedFile(_ damage: Damage) throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = IdentityStore(directory: directory)
        _ = try store.loadOrCreate()
        let damaged = damage.apply(Array(try Data(contentsOf: URL(fileURLWithPath: store.keyFilePath))))
        try Data(damaged).write(to: URL(fileURLWithPath: store.keyFilePath))
        #expect(chmod(store.keyFilePath, 0o600) == 0)
        #expect(throws: IdentityStoreError.corrupt(path: store.keyFilePath, problem: damage.problem)) {
            try store.loadOrCreate()
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: store.keyFilePath))) == damaged)
    }

    @Test("Group/other permissions, a directory or a symlink in place of the file are typed errors")
    func unsafeFiles() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = IdentityStore(directory: directory)
        _ = try store.loadOrCreate()
        #expect(chmod(store.keyFilePath, 0o644) == 0)
        #expect(throws: IdentityStoreError.insecurePermissions(path: store.keyFilePath, mode: 0o644)) { try store.load() }
        try FileManager.default.removeItem(atPath: store.keyFilePath)
        try FileManager.default.createDirectory(atPath: store.keyFilePath, withIntermediateDirectories: false)
        #expect(throws: IdentityStoreError.notRegularFile(path: store.keyFilePath)) { try store.loadOrCreate() }
        try FileManager.default.removeItem(atPath: store.keyFilePath)
        try FileManager.default.createSymbolicLink(atPath: store.keyFilePath, withDestinationPath: "/etc/hostname")
        #expect(throws: IdentityStoreError.unreadable(path: store.keyFilePath, errno: ELOOP)) { try store.loadOrCreate() }
    }

    @Test("A state path that is a file is a typed error")
    func directoryIsFile() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([1]).write(to: URL(fileURLWithPath: path))
        #expect(throws: IdentityStoreError.directoryUnavailable(path: path, errno: ENOTDIR)) {
            try IdentityStore(directory: path).loadOrCreate()
        }
    }
}
