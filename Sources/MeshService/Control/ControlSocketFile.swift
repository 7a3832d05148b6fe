import ControlProtocol
import Glibc

/// Creates the listening Unix socket: stale-file check, bind, mode 0660, group, listen.
enum ControlSocketFile {
    /// Opens a non-blocking listening socket at `path`; returns the descriptor and any warning.
    static func listen(path: String, group: String?) throws(UnixSocketError) -> (fd: Int32, warning: String?) {
        try removeStale(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        do throws(UnixSocketError) {
            let bound = try UnixSocketAddress.withAddress(path) { Glibc.bind(fd, $0, $1) }
            guard bound == 0 else { throw .system(call: "bind \(path)", errno: errno) }
            guard chmod(path, 0o660) == 0 else { throw .system(call: "chmod \(path)", errno: errno) }
            let warning = applyGroup(path: path, group: group)
            guard Glibc.listen(fd, 64) == 0 else { throw .system(call: "listen", errno: errno) }
            return (fd, warning)
        } catch {
            close(fd)
            throw error
        }
    }

    /// Removes a socket file nobody listens on; refuses to touch anything else.
    static func removeStale(_ path: String) throws(UnixSocketError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path) }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw .system(call: "socket", errno: errno) }
        defer { close(probe) }
        let connected = try UnixSocketAddress.withAddress(path) { connect(probe, $0, $1) }
        guard connected != 0 else { throw .system(call: "another daemon listens on \(path); connect", errno: EADDRINUSE) }
        guard unlink(path) == 0 || errno == ENOENT else { throw .system(call: "unlink \(path)", errno: errno) }
    }

    /// Gives the socket to `group` (owner root when running as root); returns a warning if that failed.
    static func applyGroup(path: String, group: String?) -> String? {
        guard let group else { return nil }
        guard let gid = groupID(group) else {
            return "group '\(group)' does not exist; the control socket keeps the process's group"
        }
        // Under systemd (Group=meshnode) the socket is born with the group: no chown, which
        // the unit's system call filter (~@privileged) refuses.
        var info = stat()
        if stat(path, &info) == 0, info.st_gid == gid, geteuid() != 0 { return nil }
        let owner: uid_t = geteuid() == 0 ? 0 : uid_t.max
        guard chown(path, owner, gid) == 0 else {
            return "cannot give the control socket to group '\(group)': \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// Looks up a group ID by name without the non-reentrant getgrnam.
    static func groupID(_ name: String) -> gid_t? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
