// Fails when a target imports a module of this package that Package.swift does not declare as
// its dependency (SwiftPM accepts imports that arrive through another module's dependencies).
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
for problem in problems.sorted() { print("undeclared import: \(problem)") }
if !problems.isEmpty { exit(1) }
print("imports: every module a target imports from this package is declared")
