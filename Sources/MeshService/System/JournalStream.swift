import Glibc

/// Decides whether stderr is connected to journald, as sd_journal_stream_fd documents:
/// `JOURNAL_STREAM` holds `device:inode` of the stream, matched against stderr's `fstat`.
public enum JournalStream {
    /// True when `value` (`JOURNAL_STREAM`) names exactly this device and inode.
    public static func matches(_ value: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        return dev == device && ino == inode
    }

    /// True when this process's stderr is the journal stream named in its environment.
    public static func stderrIsJournal(environment value: String?) -> Bool {
        guard let value else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return matches(value, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
