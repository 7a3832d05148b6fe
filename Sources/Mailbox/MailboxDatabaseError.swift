/// What can go wrong with the mailbox's SQLite database.
public enum MailboxDatabaseError: Error, Equatable, Sendable {
    /// sqlite3_open_v2 failed: the result code and SQLite's message.
    case open(code: Int32, message: String)
    /// A statement failed: the SQL's first words, the result code and SQLite's message.
    case statement(sql: String, code: Int32, message: String)
    /// The file is not a database or is damaged (SQLITE_NOTADB, SQLITE_CORRUPT or a failed quick_check).
    case damaged(String)
    /// The damaged file could not be moved aside.
    case moveAside(path: String, errno: Int32)
}

extension MailboxDatabaseError: CustomStringConvertible {
    /// One sentence for the log.
    public var description: String {
        switch self {
        case .open(let code, let message): "cannot open (SQLite \(code)): \(message)"
        case .statement(let sql, let code, let message): "\(sql)… failed (SQLite \(code)): \(message)"
        case .damaged(let message): message
        case .moveAside(let path, let errno): "cannot move \(path) aside (errno \(errno))"
        }
    }
}
