import Glibc
import MeshCrypto
import MeshService

// meshnoded: command line and configuration first (a bad configuration stops here with
// file, line and reason, exit 78; a bad flag exits 64), then the node runs until
// SIGTERM or SIGINT.
signal(SIGPIPE, SIG_IGN)
// Before any thread exists, so that every thread inherits the mask: a SIGTERM that comes early
// waits for the daemon's signal source instead of being lost or killing it (SignalWatcher).
SignalWatcher.blockWatchedSignals()

func emit(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count <= 0 { return }
        offset += count
    }
}

// First OpenSSL call of the process: without its error strings (0.5 MiB resident, see
// docs/PERFORMANCE.md "Footprint"); failures then carry OpenSSL's numeric codes.
do {
    try OpenSSLSetup.initialiseWithoutErrorStrings()
} catch {
    emit("meshnoded: OpenSSL did not initialise: \(error)\n", to: STDERR_FILENO)
    exit(70)
}

switch DaemonStartup.prepare(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code, let output, let error):
    emit(output, to: STDOUT_FILENO)
    emit(error, to: STDERR_FILENO)
    exit(code)
case .run(let config, let invocation):
    HeapTuning.start()
    DaemonRunner.run(config: config, invocation: invocation)
}
