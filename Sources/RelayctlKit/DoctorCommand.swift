import Glibc

/// Runs a program for the doctor: its standard output, bounded in time and size.
enum DoctorCommand {
    /// Runs `arguments` (the first is the program's path) with no input and stderr discarded;
    /// the output, or why there is none (it failed, exited non-zero, took over `timeout`: killed).
    static func run(_ arguments: [String], timeout: Duration, maxOutput: Int) -> Result<[UInt8], DoctorCommandError> {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { return .failure(.system(call: "pipe", errno: errno)) }
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { return .failure(.system(call: "posix_spawn \(arguments[0])", errno: spawned)) }
        let deadline = ContinuousClock.now + timeout
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var failure: DoctorCommandError?
        while failure == nil {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                failure = .timedOut
                break
            }
            var poller = pollfd(fd: pipe[0], events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left / .milliseconds(1), 60_000)) + 1
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = read(pipe[0], &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[..<count]
            if output.count > maxOutput { failure = .tooLong }
        }
        if failure != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if let failure { return .failure(failure) }
        // WIFEXITED and WEXITSTATUS, which Glibc's Swift overlay does not bring.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return .failure(.exited(status: status)) }
        return .success(output)
    }
}

/// Why a command the doctor ran gave no output.
enum DoctorCommandError: Error, Equatable, CustomStringConvertible {
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// It did not finish in time; it was killed.
    case timedOut
    /// It printed more than the doctor reads; it was killed.
    case tooLong
    /// It exited with a failure (the raw wait status).
    case exited(status: Int32)

    var description: String {
        switch self {
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .timedOut: "no answer within the time given (killed)"
        case .tooLong: "more output than the doctor reads (killed)"
        case .exited(let status): status & 0x7F == 0 ? "exit status \((status >> 8) & 0xFF)" : "killed by signal \(status & 0x7F)"
        }
    }
}
