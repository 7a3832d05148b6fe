import Glibc

/// Starts a detached POSIX thread (Foundation's `Thread` without Foundation), named so that
/// `ps -L` and `top -H` tell the daemon's threads apart.
public enum DetachedThread {
    /// The name and body handed through pthread's `void *` argument.
    private final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// The thread's entry: takes back the retained `Start`, names the thread, runs the body.
    private static let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { pointer in
        guard let pointer else { return nil }
        let start = Unmanaged<Start>.fromOpaque(pointer).takeRetainedValue()
        nameThisThread(start.name)
        start.body()
        return nil
    }

    /// Runs `body` on a new detached thread named `name`; returns 0, or `pthread_create`'s error
    /// number when the thread could not be created (then `body` never runs).
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Int32 {
        let argument = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, entry, argument)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(argument).release()
            return result
        }
        pthread_detach(thread)
        return 0
    }

    /// Names the calling thread as `ps -L` and `top -H` show it (Linux keeps 15 bytes); best effort.
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}
