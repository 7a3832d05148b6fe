import Foundation
import Glibc
import MeshTestSupport
import Testing
@testable import MeshConfig

/// Issue 11: `--config` naming a FIFO with no writer waited forever.
@Suite("config files that are not regular files")
struct ConfigSpecialFileTests {
    @Test("A FIFO with no writer is refused at once, not waited on")
    func fifoIsRefusedWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/meshnoded.conf"
        #expect(mkfifo(path, 0o600) == 0)
        let outcome = Recorder<String>()
        Thread.detachNewThread {
            do throws(ConfigError) {
                _ = try ConfigLoader.load(path: path, mayBeMissing: false, overrides: [])
                outcome.append("loaded")
            } catch {
                outcome.append(error.description)
            }
        }
        let answered = outcome.wait { !$0.isEmpty }
        if !answered {
            // The loader is stuck in open(): give it a writer so the thread ends.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(answered, "the loader blocked on the FIFO")
        #expect(outcome.all == ["\(path): not a regular file but a FIFO"])
    }

    @Test("Anything but a regular file is named in the error", arguments: [
        ("/dev/null", "a character device"), ("/", "a directory"),
    ])
    func otherKinds(_ path: String, _ kind: String) {
        #expect(throws: ConfigError(file: path, line: nil, problem: .notRegularFile(kind))) {
            try ConfigLoader.readFile(path, mayBeMissing: false)
        }
    }
}
