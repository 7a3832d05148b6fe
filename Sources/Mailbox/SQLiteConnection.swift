import CSQLite
import Glibc

/// One sqlite3 connection, owned by one thread or queue at a time (GRDB's SerializedDatabase is
/// the model: the owner serialises access, so the connection is opened without SQLite's mutex).
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens or creates the database at `path`, mode 0600 whatever the umask (it holds the plain
    /// text of messages waiting for a key): created so before SQLite opens it, tightened if an
    /// older file was more open. SQLite gives the `-wal` and `-shm` files the database's mode.
    init(path: String) throws(MailboxDatabaseError) {
        Self.makePrivate(path)
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw .open(code: code, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 1_000)
    }

    deinit { sqlite3_close(handle) }

    /// Creates `path` (empty: a valid new database) with mode 0600 if missing, and takes group and
    /// other permissions off it and off its `-wal` and `-shm` files. Failures are left to SQLite's open.
    static func makePrivate(_ path: String) {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            _ = fchmod(descriptor, 0o600)
            Glibc.close(descriptor)
        }
        for suffix in ["-wal", "-shm"] {
            var info = stat()
            if lstat(path + suffix, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 != 0 {
                _ = chmod(path + suffix, 0o600)
            }
        }
    }

    /// Runs one or more statements that return no rows the caller needs.
    func execute(_ sql: String) throws(MailboxDatabaseError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(sql, code) }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws(MailboxDatabaseError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(sql, code) }
        return SQLiteStatement(statement, connection: self, sql: sql)
    }

    /// The error for a failed call: `.damaged` for SQLite's corruption codes.
    func error(_ sql: String, _ code: Int32) -> MailboxDatabaseError {
        let message = String(cString: sqlite3_errmsg(handle))
        let primary = code & 0xff
        if primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB { return .damaged(message) }
        return .statement(sql: String(sql.prefix(40)), code: code, message: message)
    }
}

/// One prepared statement; finalised when released.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection
    private let sql: String

    init(_ handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds a blob to the 1-based parameter `index`.
    func bind(_ bytes: [UInt8], at index: Int32) {
        _ = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), meshnode_sqlite_transient()) }
    }

    /// Binds an integer to the 1-based parameter `index`.
    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }

    /// Steps once: true while a row is ready.
    func step() throws(MailboxDatabaseError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(sql, code)
        }
    }

    /// Runs the statement to its end and resets it for the next bindings.
    func run() throws(MailboxDatabaseError) {
        defer { reset() }
        while try step() {}
    }

    /// Resets the statement and clears its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The blob in 0-based column `index` of the current row.
    func blob(at index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let base = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The integer in 0-based column `index` of the current row.
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The text in 0-based column `index` of the current row.
    func text(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        return String(cString: text)
    }
}
