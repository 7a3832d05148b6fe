import Foundation

/// Runs scripts/check-metrics.py (python3-prometheus-client's parsers) on files a test wrote.
public enum MetricsCheck {
    /// What the script printed (standard output and error together) and its exit status.
    public struct Result: Sendable {
        /// The script's output.
        public var output: String
        /// The script's exit status.
        public var status: Int32
    }

    /// Runs the script with `dialect` (`openmetrics` or `prometheus`) and `files`, in the order the
    /// script takes them, and waits for it.
    public static func run(dialect: String, files: [String]) throws -> Result {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/check-metrics.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, dialect] + files
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(output: output, status: process.terminationStatus)
    }
}
