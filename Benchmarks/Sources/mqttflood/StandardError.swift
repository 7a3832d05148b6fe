import Glibc

/// Writes one line to standard error (file descriptor 2), without touching C's `stderr` global.
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}
