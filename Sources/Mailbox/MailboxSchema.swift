/// The mailbox database's pragmas and tables (docs/OPERATIONS.md, "Mailbox").
///
/// WAL with `synchronous = NORMAL`: a commit appends to the write-ahead log without fsync, so a
/// process crash (`kill -9`) loses nothing committed (the log is in the kernel's page cache) and
/// a power cut keeps the database consistent, losing at most the commits since the kernel last
/// wrote back (seconds). `FULL` would fsync every commit, a flash erase-block rewrite each time on
/// an SD card, for mail that its sender's own client still shows as sent. The log is checkpointed
/// every 256 pages and cut back to 1 MiB, so it cannot grow without bound.
enum MailboxSchema {
    static let pragmas = """
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = NORMAL;
        PRAGMA wal_autocheckpoint = 256;
        PRAGMA journal_size_limit = 1048576;
        PRAGMA secure_delete = FAST;
        """

    static let tables = """
        CREATE TABLE IF NOT EXISTS held (
            id BLOB PRIMARY KEY, recipient BLOB NOT NULL, origin BLOB NOT NULL, depositor BLOB NOT NULL,
            deposited_at INTEGER NOT NULL, seq INTEGER NOT NULL, envelope BLOB NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS delivered (id BLOB PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS waiting_for_key (
            id BLOB PRIMARY KEY, target BLOB NOT NULL, queued_at INTEGER NOT NULL, seq INTEGER NOT NULL,
            text BLOB NOT NULL) WITHOUT ROWID;
        """

    static let insertMemorySince = "INSERT OR IGNORE INTO meta (key, value) VALUES ('memory_since', ?1)"
    static let selectMemorySince = "SELECT value FROM meta WHERE key = 'memory_since'"
    static let updateMemorySince = "UPDATE meta SET value = ?1 WHERE key = 'memory_since'"

    static let insertHeld =
        "INSERT OR REPLACE INTO held (id, recipient, origin, depositor, deposited_at, seq, envelope) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    static let deleteHeld = "DELETE FROM held WHERE id = ?1"
    static let selectEntries = "SELECT id, recipient, origin, depositor, deposited_at, seq, length(envelope) FROM held ORDER BY seq"
    static let selectEnvelope = "SELECT envelope FROM held WHERE id = ?1"
    static let insertWaiting =
        "INSERT OR REPLACE INTO waiting_for_key (id, target, queued_at, seq, text) VALUES (?1, ?2, ?3, ?4, ?5)"
    static let deleteWaiting = "DELETE FROM waiting_for_key WHERE id = ?1"
    static let selectWaitingEntries = "SELECT id, target, queued_at, seq, length(text) FROM waiting_for_key ORDER BY seq"
    static let selectWaitingText = "SELECT text FROM waiting_for_key WHERE id = ?1"
    static let insertDelivered = "INSERT OR REPLACE INTO delivered (id, expires_at) VALUES (?1, ?2)"
    static let selectDelivered = "SELECT id, expires_at FROM delivered"
    static let expireDelivered = "DELETE FROM delivered WHERE expires_at <= ?1"
}
