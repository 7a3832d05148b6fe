import Glibc
import RelayctlKit

// relayctl: parse, run, exit. The client is the RelayctlKit library (RelayctlArguments,
// RelayctlRunner, ControlClient, ReportFormatter), tested in RelayctlKitTests.
signal(SIGPIPE, SIG_IGN)
let write: @Sendable (Int32, String) -> Void = { fd, text in
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count <= 0 { break }
        offset += count
    }
}
/// The process environment as `NAME=value` pairs (what ProcessInfo gives, without Foundation).
func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let pair = String(cString: pointer)
        if let equals = pair.firstIndex(of: "=") {
            result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        entry += 1
    }
    return result
}
let runner = RelayctlRunner(out: { write(STDOUT_FILENO, $0) }, err: { write(STDERR_FILENO, $0) })
/// argv after the program name as raw bytes, to refuse text that is not UTF-8 (CommandLine.arguments
/// would have repaired it with U+FFFD).
func rawArguments() -> [[UInt8]] {
    (1..<Int(CommandLine.argc)).map { index in
        guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    }
}
do throws(RelayctlUsageError) {
    try RelayctlArguments.checkEncoding(rawArguments())
    let invocation = try RelayctlArguments.parse(Array(CommandLine.arguments.dropFirst()),
                                                 environment: processEnvironment())
    exit(runner.run(invocation).rawValue)
} catch {
    write(STDERR_FILENO, "relayctl: \(error.message)\n\(RelayctlHelp.usage(error.command))\n")
    exit(RelayctlExitCode.usage.rawValue)
}
