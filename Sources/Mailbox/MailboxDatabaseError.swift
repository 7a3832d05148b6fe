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
