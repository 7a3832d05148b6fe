// Fails when a target imports a module of this package that Package.swift does not declare as
// its dependency (SwiftPM accepts imports that arrive through another module's dependencies), and
// when MeshConfig or RelayctlKit comes to depend on the daemon, the engine or crypto (the `forbidden` rules below).
// Usage: swift package dump-package | swift scripts/check-imports.swift
import Foundation

struct Manifest: Decodable {
    struct Target: Decodable {
        let name: String
        let type: String
        let path: String?
        let dependencies: [Dependency]
    }
    /// `{"byName": ["X", null]}`, `{"target": ["X", null]}` or `{"product": ["X", "pkg", ...]}`.
    struct Dependency: Decodable {
        let name: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            guard let key = container.allKeys.first else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "empty dependency")) }
            var list = try container.nestedUnkeyedContainer(forKey: key)
            name = try list.decode(String.self)
        }
    }
    struct AnyKey: CodingKey {
        let stringValue: String
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
    let targets: [Target]
}

let manifest = try JSONDecoder().decode(Manifest.self, from: FileHandle.standardInput.readDataToEndOfFile())
let ours = Set(manifest.targets.map(\.name))
var problems: [String] = []
for target in manifest.targets where target.type != "system" {
    let folder = target.path ?? (target.type == "test" ? "Tests/\(target.name)" : "Sources/\(target.name)")
    let declared = Set(target.dependencies.map(\.name))
    guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
    for case let file as String in files where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                words[..<index].allSatisfy({ $0.hasPrefix("@") })
            else { continue }
            let module = words[index + 1]
            if ours.contains(module), !declared.contains(module), module != target.name {
                problems.append("\(target.name): \(folder)/\(file) imports \(module), which Package.swift does not declare")
            }
        }
    }
}

// The seams: modules that must not reach these, directly or through their dependencies.
let forbidden: [String: Set<String>] = [
    // Fuzzers, relayctl and the man-page tests link the configuration without the daemon, D-Bus,
    // the engine, a transport or crypto: it is a leaf, and its settings become configurations in MeshService.
    "MeshConfig": [
        "MeshService", "GATTBridge", "DBusKit", "CDBus", "CSystemd", "MeshNode", "Flooding", "Fragmenter", "MeshCrypto",
        "COpenSSL", "UDPTransport", "MQTTBridge", "Mailbox", "MailboxCourier",
    ],
    // relayctl's logic links no daemon, no libsystemd, no engine and no libcrypto.
    "RelayctlKit": ["MeshService", "CSystemd", "MeshNode", "MeshCrypto", "COpenSSL"],
]
let dependencies = Dictionary(uniqueKeysWithValues: manifest.targets.map { ($0.name, $0.dependencies.map(\.name)) })
func reached(from name: String) -> Set<String> {
    var seen: Set<String> = []
    var pending = dependencies[name] ?? []
    while let next = pending.popLast() {
        if seen.insert(next).inserted { pending += dependencies[next] ?? [] }
    }
    return seen
}
var seamProblems: [String] = []
for (module, banned) in forbidden.sorted(by: { $0.key < $1.key }) {
    guard dependencies[module] != nil else {
        seamProblems.append("\(module) is not in Package.swift; update the rules in scripts/check-imports.swift")
        continue
    }
    for name in reached(from: module).intersection(banned).sorted() {
        seamProblems.append("\(module) depends on \(name), directly or through its dependencies")
    }
}
for problem in problems.sorted() { print("undeclared import: \(problem)") }
for problem in seamProblems { print("seam crossed: \(problem)") }
if !problems.isEmpty || !seamProblems.isEmpty { exit(1) }
print("imports: every module a target imports from this package is declared; MeshConfig and RelayctlKit keep their seams")
