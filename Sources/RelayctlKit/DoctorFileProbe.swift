import Doctor
import Glibc

/// Looks at files, accounts and free space: `lstat`, `getpwnam`, `getgrnam`, `statvfs`.
enum DoctorFileProbe {
    /// Where the package and `make install` put the D-Bus policy, in the bus's own search order.
    static let policyPaths = ["/etc/dbus-1/system.d/meshnoded.conf", "/usr/share/dbus-1/system.d/meshnoded.conf"]
    /// The most of the policy file read.
    static let maxPolicyBytes = 64 << 10

    /// What `lstat` says about `path` (a symbolic link is reported as `other`, not followed).
    static func path(_ path: String) -> PathFact {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT ? .missing : .inaccessible(String(cString: strerror(code)))
        }
        let kind: FileStatus.Kind = switch info.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        default: .other
        }
        return .present(FileStatus(kind: kind, mode: info.st_mode & 0o7777, owner: userName(info.st_uid)))
    }

    /// Whether a user of that name exists.
    static func userExists(_ name: String) -> Bool { getpwnam(name) != nil }

    /// Whether a group of that name exists.
    static func groupExists(_ name: String) -> Bool { getgrnam(name) != nil }

    /// The first policy file found, and whether it has a `<policy user="USER">`.
    static func policy(user: String) -> DBusPolicyFact {
        for path in policyPaths {
            guard let file = fopen(path, "re") else {
                if errno == ENOENT { continue }
                return .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            defer { fclose(file) }
            var bytes = [UInt8](repeating: 0, count: maxPolicyBytes)
            let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            let text = String(decoding: bytes[..<count], as: UTF8.self)
            return .present(path: path, namesServiceUser: text.contains("<policy user=\"\(user)\">"))
        }
        return .missing(searched: policyPaths)
    }

    /// Free space on the file system of `path`, or of its nearest existing parent.
    static func space(_ path: String) -> SpaceFact {
        var probe = path
        var info = statvfs()
        while statvfs(probe, &info) != 0 {
            guard errno == ENOENT, let slash = probe.lastIndex(of: "/"), probe != "/" else {
                return .unknown(path: probe, reason: String(cString: strerror(errno)))
            }
            probe = slash == probe.startIndex ? "/" : String(probe[..<slash])
        }
        let block = UInt64(info.f_frsize)
        return .measured(path: probe, availableBytes: UInt64(info.f_bavail) * block, totalBytes: UInt64(info.f_blocks) * block)
    }

    /// The user name of `uid`, or the number when it has none.
    private static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
        return String(cString: name)
    }
}
