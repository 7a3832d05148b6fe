import MeshProtocol

/// The version meshnoded and relayctl print (`--version`, `status`), and the mesh protocol they speak.
public enum ProductVersion {
    /// The release, such as `0.1.0`.
    public static let current = "0.1.0"
    /// The envelope wire format version (docs/PROTOCOL.md, "version").
    public static let meshProtocol = Int(Envelope.currentVersion)

    /// `NAME 0.1.0 (mesh protocol 1)`, the `--version` line of both programs.
    public static func line(_ program: String) -> String {
        "\(program) \(current) (mesh protocol \(meshProtocol))\n"
    }
}
