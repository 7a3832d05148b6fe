import ControlProtocol
import Doctor
import Foundation
import MeshConfig
import Testing
@testable import RelayctlKit

/// The default control socket path is written once in code, `ControlSocketDefaults.path`; the
/// docs and man pages keep its literal text, checked here.
@Suite("default control socket path")
struct ControlSocketDefaultsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the daemon's default, relayctl's default and its help use the constant")
    func codeUsesTheConstant() {
        #expect(ControlSocketDefaults.path == "/run/meshnoded/control.sock")
        #expect(NodeSettings().controlSocket == ControlSocketDefaults.path)
        #expect(RelayctlInvocation.defaultSocket == ControlSocketDefaults.path)
        #expect(RelayctlHelp.text(nil).contains("(default: $RELAYCTL_SOCKET or \(ControlSocketDefaults.path))"))
        // Doctor keeps its own default (it links no ControlProtocol); it must agree.
        #expect(DoctorSetup().controlSocket == ControlSocketDefaults.path)
    }

    /// Each page and the text it must hold. A property, not literals in `@Test`: Swift 6.0.3's
    /// compiler crashes on string interpolation inside the macro's arguments.
    static let pages: [(String, String)] = [
        ("docs/CONTROL.md", "default `\(ControlSocketDefaults.path)` (`RuntimeDirectory=meshnoded`)"),
        ("docs/CONTROL.md", "picks the socket; default `\(ControlSocketDefaults.path)`."),
        ("man/relayctl.1", ".IR \(ControlSocketDefaults.path) ."),
        ("man/meshnoded.8", ".I \(ControlSocketDefaults.path)\n"),
    ]

    @Test("docs and man pages show the constant's value", arguments: pages)
    func docsShowTheValue(_ file: String, _ text: String) throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
        #expect(page.contains(text), "\(file) does not show the default control socket as \(text.debugDescription)")
    }
}
