import Glibc

extension IdentityFileProblem: CustomStringConvertible {
    /// What is wrong with the file's bytes, as a clause: "it is 50 bytes long, not 101".
    public var description: String {
        switch self {
        case .wrongLength(let length): "it is \(length) bytes long, not \(IdentityFile.length)"
        case .badMagic: "it does not start with \"MNID\""
        case .unsupportedVersion(let version): "its format version is \(version), not \(IdentityFile.version)"
        case .checksumMismatch: "its checksum does not match its contents"
        case .invalidKey: "it holds a key that is not a valid P-256 private key"
        }
    }
}

extension IdentityStoreError: CustomStringConvertible {
    /// One sentence naming the file or directory and what is wrong with it.
    public var description: String {
        switch self {
        case .directoryUnavailable(let path, let code):
            "state directory \(path) cannot be used: \(Self.reason(code))"
        case .unreadable(let path, let code):
            "identity file \(path) cannot be read: \(Self.reason(code))"
        case .notRegularFile(let path):
            "identity file \(path) is not a regular file; move it away to make a new node identity"
        case .insecurePermissions(let path, let mode):
            "identity file \(path) has mode \(String(mode, radix: 8)), open to group or others; make it 600 (chmod 600)"
        case .corrupt(let path, let problem):
            "identity file \(path) is damaged: \(problem); restore it from a backup, or move it away to make a new node identity"
        case .writeFailed(let path, let step, let code):
            "identity file \(path) cannot be written: \(step) failed: \(Self.reason(code))"
        case .crypto(let error):
            "a node identity cannot be generated: \(error)"
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
