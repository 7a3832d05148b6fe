import ControlProtocol
import Foundation
import Testing
@testable import MeshConfig
@testable import RelayctlKit

/// The man pages in man/ against the tables that drive `--help`, and against `man` itself.
@Suite("man pages match the option tables and render cleanly")
struct ManPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let pages = ["meshnoded.8", "relayctl.1", "meshnoded.conf.5"]
    static let manAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/man")

    static func page(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("man/" + name), encoding: .utf8)
    }

    /// `--a-flag` as roff writes it, `\-\-a\-flag`.
    static func roff(_ flag: String) -> String { flag.replacingOccurrences(of: "-", with: #"\-"#) }

    /// Every `--flag` in a help text.
    static func flags(in text: String) -> Set<String> {
        let words = text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") })
        return Set(words.filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
    }

    /// The tag lines of a page: the line after each `.TP`, which names what the paragraph describes.
    static func tags(_ page: String) -> [String] {
        let lines = page.components(separatedBy: "\n")
        return zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" }.map(\.1)
    }

    /// Whether a tag line names `word` (roff-escaped) as a whole word.
    static func names(_ tag: String, _ word: String) -> Bool {
        tag.hasSuffix(" " + word) || tag.contains(" " + word + " ") || tag.contains(" " + word + "\"")
    }

    @Test("meshnoded.conf(5) carries the option list generated from ConfigSchema, so no option lacks an entry")
    func configPageMatchesTheTable() throws {
        let path = Self.root.appendingPathComponent("man/meshnoded.conf.5")
        let text = try String(contentsOf: path, encoding: .utf8)
        let begin = try #require(text.range(of: ConfigManual.begin + "\n"), "the BEGIN OPTIONS line is missing")
        let end = try #require(text.range(of: ConfigManual.end + "\n", range: begin.upperBound..<text.endIndex))
        let current = String(text[begin.upperBound..<end.lowerBound])
        if current != ConfigManual.roff, ProcessInfo.processInfo.environment["MESHNODE_UPDATE_MAN"] == "1" {
            try (String(text[..<begin.upperBound]) + ConfigManual.roff + String(text[end.lowerBound...]))
                .write(to: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == ConfigManual.roff,
                "man/meshnoded.conf.5 differs from the option table; rewrite it with MESHNODE_UPDATE_MAN=1 swift test --filter ManPageTests")
        for option in ConfigSchema.options {
            #expect(Self.tags(current).contains(ConfigManual.entry(option)), "no entry for \(option.name)")
        }
    }

    @Test("meshnoded(8) names every flag of meshnoded --help that is not a configuration key")
    func daemonPageNamesEveryFlag() throws {
        let page = try Self.page("meshnoded.8")
        let help = DaemonCommandLine.helpText.components(separatedBy: "\n[")[0]
        let flags = Self.flags(in: help).filter { !$0.contains(".") }
        #expect(flags.isSuperset(of: ["--config", "--check-config", "--print-config", "--version", "--help"]))
        for flag in flags {
            #expect(page.contains(Self.roff(flag)), "man/meshnoded.8 does not mention \(flag)")
        }
    }

    @Test("relayctl(1) names every command and every option of relayctl --help")
    func relayctlPageNamesEveryCommandAndOption() throws {
        let page = try Self.page("relayctl.1")
        let tags = Self.tags(page)
        for command in ControlCommand.allCases.map(\.rawValue) {
            #expect(tags.contains { Self.names($0, command) }, "man/relayctl.1 has no entry for \(command)")
        }
        let help = ([nil] + ControlCommand.allCases.map { $0.rawValue as String? }).map { RelayctlHelp.text($0) }.joined(separator: "\n")
        let flags = Self.flags(in: help)
        #expect(flags.isSuperset(of: ["--json", "--socket", "--to", "--openmetrics", "--prometheus", "--help"]))
        for flag in flags {
            #expect(tags.contains { Self.names($0, Self.roff(flag)) }, "man/relayctl.1 has no entry for \(flag)")
        }
    }

    @Test("man --warnings -l renders every page without a warning", .enabled(if: manAvailable, "needs man (man-db, groff-base)"),
          arguments: pages)
    func rendersWithoutWarnings(_ name: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/man")
        process.arguments = ["--warnings", "-l", Self.root.appendingPathComponent("man/" + name).path]
        process.environment = ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let rendered = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(warnings.isEmpty, "man --warnings -l man/\(name):\n\(warnings)")
        #expect(rendered.contains("NAME") && rendered.contains("SEE ALSO"))
    }
}
