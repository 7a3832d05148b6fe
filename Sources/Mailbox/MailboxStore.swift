import CSQLite
import Glibc
import MeshProtocol

/// The durable mailbox: the pure `MailboxIndex` in memory, envelopes in SQLite; and the
/// operator's messages waiting for a key (`KeyWaitQueue`, texts in the same database).
///
/// Owned by one queue. Changes are kept in memory and written by `flush()` in one transaction,
/// which the daemon calls at most once per engine tick (250 ms), so a burst of deposits costs
/// one WAL append, not one per message. Until then `envelope(for:)` answers from memory.
public final class MailboxStore {
    /// The database file.
    public let path: String
    /// The decisions and what they counted.
    public internal(set) var index: MailboxIndex
    /// Messages this node's operator wrote to nodes whose key is not known yet.
    public internal(set) var keyWait: KeyWaitQueue
    let connection: SQLiteConnection
    private var pendingInserts: [MessageID: (entry: MailboxEntry, envelope: [UInt8])] = [:]
    private var pendingDeletes: Set<MessageID> = []
    private var pendingDelivered: [MessageID: UInt64] = [:]
    var pendingWaitInserts: [MessageID: (entry: KeyWaitEntry, text: [UInt8])] = [:]
    var pendingWaitDeletes: Set<MessageID> = []
    private var deliveredExpiry: UInt64?
    /// Since when the delivered-ID records are complete (PROTOCOL.md Part G, the recipient's
    /// `vouchedSince`): when this database was created, then as the engine lowered or raised it.
    public private(set) var memorySince: UInt64 = 0
    private var pendingMemorySince: UInt64?

    private init(path: String, limits: MailboxLimits, connection: SQLiteConnection, now: UInt64) throws(MailboxDatabaseError) {
        self.path = path
        self.connection = connection
        self.index = MailboxIndex(limits: limits)
        self.keyWait = KeyWaitQueue(limits: KeyWaitLimits(retentionMilliseconds: limits.retentionMilliseconds))
        try connection.execute(MailboxSchema.pragmas)
        let check = try connection.prepare("PRAGMA quick_check")
        while try check.step() {
            let verdict = check.text(at: 0)
            if verdict != "ok" { throw .damaged(verdict) }
        }
        try connection.execute(MailboxSchema.tables)
        let since = try connection.prepare(MailboxSchema.insertMemorySince)
        since.bind(Int64(clamping: now), at: 1)
        try since.run()
        let readSince = try connection.prepare(MailboxSchema.selectMemorySince)
        if try readSince.step() { memorySince = UInt64(max(0, readSince.int64(at: 0))) }
        let rows = try connection.prepare(MailboxSchema.selectEntries)
        while try rows.step() {
            guard let id = try? MessageID(bytes: rows.blob(at: 0)), let recipient = try? NodeID(bytes: rows.blob(at: 1)),
                let origin = try? NodeID(bytes: rows.blob(at: 2)), let depositor = try? NodeID(bytes: rows.blob(at: 3))
            else { continue }
            index.restore(MailboxEntry(
                messageID: id, recipient: recipient, origin: origin, depositor: depositor, size: Int(rows.int64(at: 6)),
                depositedAt: UInt64(max(0, rows.int64(at: 4))), sequence: UInt64(max(0, rows.int64(at: 5)))))
        }
        let waiting = try connection.prepare(MailboxSchema.selectWaitingEntries)
        while try waiting.step() {
            guard let id = try? MessageID(bytes: waiting.blob(at: 0)), let target = try? NodeID(bytes: waiting.blob(at: 1)) else { continue }
            keyWait.restore(KeyWaitEntry(
                messageID: id, target: target, size: Int(waiting.int64(at: 4)), queuedAt: UInt64(max(0, waiting.int64(at: 2))),
                sequence: UInt64(max(0, waiting.int64(at: 3)))))
        }
    }

    /// Opens the store at `path`; a damaged file (and its -wal and -shm) is renamed to
    /// `path.damaged-<now>` and an empty store is created in its place.
    public static func open(path: String, limits: MailboxLimits, now: UInt64) throws(MailboxDatabaseError) -> MailboxOpenResult {
        do {
            return MailboxOpenResult(store: try MailboxStore(path: path, limits: limits, connection: SQLiteConnection(path: path), now: now), movedAside: nil)
        } catch {
            guard case .damaged = error else { throw error }
            let aside = "\(path).damaged-\(now)"
            for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
                guard rename(path + suffix, aside + suffix) == 0 else { throw .moveAside(path: path + suffix, errno: errno) }
            }
            let store = try MailboxStore(path: path, limits: limits, connection: SQLiteConnection(path: path), now: now)
            return MailboxOpenResult(store: store, movedAside: (aside, error))
        }
    }

    /// The SQLite library's version, for reports.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// True when changes wait for `flush()`.
    public var hasPendingWrites: Bool {
        !pendingInserts.isEmpty || !pendingDeletes.isEmpty || !pendingDelivered.isEmpty || deliveredExpiry != nil
            || pendingMemorySince != nil || !pendingWaitInserts.isEmpty || !pendingWaitDeletes.isEmpty
    }

    /// Offers a sealed envelope (encoded) for admission; see `MailboxIndex.admit`.
    public func deposit(
        _ envelope: [UInt8], messageID: MessageID, recipient: NodeID, origin: NodeID, depositor: NodeID, timestamp: UInt64,
        now: UInt64
    ) -> MailboxAdmission {
        let admission = index.admit(
            messageID: messageID, recipient: recipient, origin: origin, depositor: depositor, size: envelope.count,
            timestamp: timestamp, now: now)
        guard case .held(let evicted) = admission, let entry = index.entries[messageID] else { return admission }
        for eviction in evicted { forget(eviction.messageID) }
        pendingDeletes.remove(messageID)
        pendingInserts[messageID] = (entry, envelope)
        return admission
    }

    /// The encoded envelope of a held message.
    public func envelope(for messageID: MessageID) -> [UInt8]? {
        guard index.entries[messageID] != nil else { return nil }
        if let pending = pendingInserts[messageID] { return pending.envelope }
        do {
            let select = try connection.prepare(MailboxSchema.selectEnvelope)
            select.bind(messageID.bytes, at: 1)
            guard try select.step() else { return nil }
            return select.blob(at: 0)
        } catch {
            index.recordStoreError()
            return nil
        }
    }

    /// Removes a message the recipient's link accepted.
    public func handedOver(_ messageID: MessageID) {
        if index.handedOver(messageID) { forget(messageID) }
    }

    /// Removes a message without counting it (its envelope could not be read or decoded).
    public func discard(_ messageID: MessageID) {
        if index.remove(messageID) != nil { forget(messageID) }
    }

    /// Removes what outlived the retention, and delivered-ID records past their expiry.
    public func expire(now: UInt64) {
        for id in index.expire(now: now) { forget(id) }
        for id in keyWait.expire(now: now) { forgetWaiting(id) }
        deliveredExpiry = now
    }

    /// Marks held messages for `recipient` copied toward it now; returns them (see `MailboxIndex.copiesDue`).
    public func copiesDue(for recipient: NodeID, now: UInt64) -> [MailboxEntry] { index.copiesDue(for: recipient, now: now) }

    /// Records that a direct message was delivered here, for the recipient's memory (PROTOCOL.md Part G).
    public func recordDelivered(_ messageID: MessageID, expiresAt: UInt64) { pendingDelivered[messageID] = expiresAt }

    /// Keeps since when the delivery memory is complete, as the engine has it now (lowered to
    /// mesh time when a clock that was ahead wrote it, raised when the memory forgot an ID
    /// early, PROTOCOL.md G4); written at the next flush when it changed.
    public func recordMemorySince(_ vouchedSince: UInt64) {
        guard vouchedSince != memorySince else { return }
        memorySince = vouchedSince
        pendingMemorySince = vouchedSince
    }

    /// The delivered-ID records on disk (read at start-up).
    public func deliveredRecords() throws(MailboxDatabaseError) -> [(MessageID, UInt64)] {
        let rows = try connection.prepare(MailboxSchema.selectDelivered)
        var records: [(MessageID, UInt64)] = []
        while try rows.step() {
            guard let id = try? MessageID(bytes: rows.blob(at: 0)) else { continue }
            records.append((id, UInt64(max(0, rows.int64(at: 1)))))
        }
        return records
    }

    /// Writes every pending change in one transaction; false (counted) when it failed, in which
    /// case the changes stay pending for the next call.
    @discardableResult
    public func flush() -> Bool {
        guard hasPendingWrites else { return true }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                try writePending()
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch {
            index.recordStoreError()
            return false
        }
        pendingInserts.removeAll(keepingCapacity: true)
        pendingDeletes.removeAll(keepingCapacity: true)
        pendingDelivered.removeAll(keepingCapacity: true)
        pendingWaitInserts.removeAll(keepingCapacity: true)
        pendingWaitDeletes.removeAll(keepingCapacity: true)
        deliveredExpiry = nil
        pendingMemorySince = nil
        index.recordCommit()
        return true
    }

    /// Bytes of the database and its write-ahead log on disk.
    public var databaseBytes: Int {
        var total = 0
        for suffix in ["", "-wal"] {
            var info = stat()
            if stat(path + suffix, &info) == 0 { total += Int(info.st_size) }
        }
        return total
    }

    private func writePending() throws(MailboxDatabaseError) {
        if !pendingDeletes.isEmpty {
            let delete = try connection.prepare(MailboxSchema.deleteHeld)
            for id in pendingDeletes {
                delete.bind(id.bytes, at: 1)
                try delete.run()
            }
        }
        if !pendingInserts.isEmpty {
            let insert = try connection.prepare(MailboxSchema.insertHeld)
            for (id, pending) in pendingInserts {
                let entry = pending.entry
                insert.bind(id.bytes, at: 1)
                insert.bind(entry.recipient.bytes, at: 2)
                insert.bind(entry.origin.bytes, at: 3)
                insert.bind(entry.depositor.bytes, at: 4)
                insert.bind(Int64(clamping: entry.depositedAt), at: 5)
                insert.bind(Int64(clamping: entry.sequence), at: 6)
                insert.bind(pending.envelope, at: 7)
                try insert.run()
            }
        }
        if !pendingDelivered.isEmpty {
            let insert = try connection.prepare(MailboxSchema.insertDelivered)
            for (id, expiresAt) in pendingDelivered {
                insert.bind(id.bytes, at: 1)
                insert.bind(Int64(clamping: expiresAt), at: 2)
                try insert.run()
            }
        }
        if let since = pendingMemorySince {
            let update = try connection.prepare(MailboxSchema.updateMemorySince)
            update.bind(Int64(clamping: since), at: 1)
            try update.run()
        }
        try writePendingWaiting()
        if let now = deliveredExpiry {
            let expire = try connection.prepare(MailboxSchema.expireDelivered)
            expire.bind(Int64(clamping: now), at: 1)
            try expire.run()
        }
    }

    private func forget(_ messageID: MessageID) {
        if pendingInserts.removeValue(forKey: messageID) == nil { pendingDeletes.insert(messageID) }
    }
}
