import Glibc

/// An exclusive `flock` on `meshnoded.lock` in the state directory, held for the life of the
/// process: a second meshnoded pointed at the same directory refuses to start, naming the PID
/// that holds it, instead of running as the same node ID on the same seen journal and mailbox.
///
/// The lock goes with the process (the kernel drops it on exit, even after `kill -9`), so a
/// stale lock file is never in the way. The descriptor is never closed: closing it would drop
/// the lock.
public struct StateDirectoryLock: Sendable {
    /// The lock file's name in the state directory.
    public static let fileName = "meshnoded.lock"
    /// The open lock file.
    public let descriptor: Int32
    /// Its path.
    public let path: String

    /// Takes the lock in `directory`, creating the directory (0700, with missing parents, like
    /// `mkdir -p`) and the file (0600) when missing, and writes this process's PID into it.
    public static func acquire(in directory: String) throws(StateDirectoryLockError) -> StateDirectoryLock {
        var partial = ""
        for component in directory.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0, errno != EEXIST { throw .cannotOpen(path: partial, errno: errno) }
        }
        let path = directory + "/" + fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = readPID(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK { throw .inUse(directory: directory, pid: holder) }
            throw .cannotOpen(path: path, errno: code)
        }
        _ = fchmod(descriptor, 0o600)
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return StateDirectoryLock(descriptor: descriptor, path: path)
    }

    /// The PID the holder wrote, if it can be read.
    static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).prefix { $0.isNumber })
    }
}

/// Why the state directory could not be locked.
public enum StateDirectoryLockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process (this PID, when it wrote one) holds the lock.
    case inUse(directory: String, pid: Int32?)
    /// The directory or the lock file could not be opened or locked.
    case cannotOpen(path: String, errno: Int32)

    /// One sentence for the journal.
    public var description: String {
        switch self {
        case .inUse(let directory, let pid):
            "state directory \(directory) is in use by another meshnoded" + (pid.map { " (PID \($0))" } ?? "")
                + "; stop it, or give this one its own [node] state_directory"
        case .cannotOpen(let path, let code): "cannot lock \(path): \(String(cString: strerror(code)))"
        }
    }
}
