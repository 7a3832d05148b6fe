import Foundation
import Glibc
import MeshTestSupport
import Testing
@testable import MeshService

/// Issue 33, item 4: one meshnoded per state directory.
@Suite("the state directory lock")
struct StateDirectoryLockTests {
    @Test func aSecondHolderIsRefusedWithTheFirstOnesPID() throws {
        let directory = try TemporaryDirectory()
        let state = directory.path + "/state/nested"
        let first = try StateDirectoryLock.acquire(in: state)
        defer { close(first.descriptor) }
        #expect(throws: StateDirectoryLockError.inUse(directory: state, pid: getpid())) {
            try StateDirectoryLock.acquire(in: state)
        }
        let error = StateDirectoryLockError.inUse(directory: state, pid: 4242)
        #expect(error.description == "state directory \(state) is in use by another meshnoded (PID 4242); stop it, or give this one its own [node] state_directory")
        #expect(StartupFailure.stateDirectory(error).exitCode == .unavailable)
        var info = stat()
        #expect(stat(first.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(state, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test func theLockGoesWithItsHolder() throws {
        let directory = try TemporaryDirectory()
        let first = try StateDirectoryLock.acquire(in: directory.path)
        close(first.descriptor)
        // A lock file left behind (a crash) is no obstacle: the lock itself went with the holder.
        let second = try StateDirectoryLock.acquire(in: directory.path)
        close(second.descriptor)
    }
}
