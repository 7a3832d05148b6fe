import MeshProtocol

/// This node's own messages waiting for a key (docs/PROTOCOL.md H4, "Waiting for a key"): texts
/// in the `waiting_for_key` table, decisions in `keyWait`, written with the mailbox's other changes
/// in `flush()`.
extension MailboxStore {
    /// Offers a message of this node's operator to wait for `target`'s key; see `KeyWaitQueue.admit`.
    /// The caller flushes at once, so a message reported held is on disk.
    public func holdForKey(_ text: String, messageID: MessageID, target: NodeID, now: UInt64) -> KeyWaitAdmission {
        let bytes = Array(text.utf8)
        let admission = keyWait.admit(messageID: messageID, target: target, size: bytes.count, now: now)
        guard admission == .held, let entry = keyWait.entries[messageID] else { return admission }
        pendingWaitDeletes.remove(messageID)
        pendingWaitInserts[messageID] = (entry, bytes)
        return admission
    }

    /// The text of a message waiting for its key.
    public func waitingText(for messageID: MessageID) -> String? {
        guard keyWait.entries[messageID] != nil else { return nil }
        if let pending = pendingWaitInserts[messageID] { return String(decoding: pending.text, as: UTF8.self) }
        do {
            let select = try connection.prepare(MailboxSchema.selectWaitingText)
            select.bind(messageID.bytes, at: 1)
            guard try select.step() else { return nil }
            return String(decoding: select.blob(at: 0), as: UTF8.self)
        } catch {
            index.recordStoreError()
            return nil
        }
    }

    /// A waiting message was sealed and sent; it leaves the queue.
    public func sentAfterKey(_ messageID: MessageID) {
        if keyWait.sent(messageID) { forgetWaiting(messageID) }
    }

    /// Removes a waiting message without counting it (its text could not be read).
    public func discardWaiting(_ messageID: MessageID) {
        if keyWait.remove(messageID) != nil { forgetWaiting(messageID) }
    }

    /// Cancels a waiting message (its writer asked): it leaves the queue and, committed at once with
    /// the write-ahead log folded back and truncated, its text leaves the database file and the log
    /// (`secure_delete` overwrites the freed cell). Returns the entry, nil when none waits with this ID.
    public func cancelWaiting(_ messageID: MessageID) -> KeyWaitEntry? {
        guard let entry = keyWait.cancel(messageID) else { return nil }
        forgetWaiting(messageID)
        if flush() { try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        return entry
    }

    /// A lookup for `target`'s key was started for its waiting messages.
    public func lookupStarted(for target: NodeID, now: UInt64) { keyWait.lookupStarted(for: target, now: now) }

    func writePendingWaiting() throws(MailboxDatabaseError) {
        if !pendingWaitDeletes.isEmpty {
            let delete = try connection.prepare(MailboxSchema.deleteWaiting)
            for id in pendingWaitDeletes {
                delete.bind(id.bytes, at: 1)
                try delete.run()
            }
        }
        guard !pendingWaitInserts.isEmpty else { return }
        let insert = try connection.prepare(MailboxSchema.insertWaiting)
        for (id, pending) in pendingWaitInserts {
            insert.bind(id.bytes, at: 1)
            insert.bind(pending.entry.target.bytes, at: 2)
            insert.bind(Int64(clamping: pending.entry.queuedAt), at: 3)
            insert.bind(Int64(clamping: pending.entry.sequence), at: 4)
            insert.bind(pending.text, at: 5)
            try insert.run()
        }
    }

    func forgetWaiting(_ messageID: MessageID) {
        if pendingWaitInserts.removeValue(forKey: messageID) == nil { pendingWaitDeletes.insert(messageID) }
    }
}
