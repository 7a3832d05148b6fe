import Mailbox
import MeshConfig
import MeshNode

extension DaemonRunner {
    /// Opens the mailbox under the state directory and fills the engine's memory of direct
    /// messages delivered here from it (PROTOCOL.md Part G). A damaged database is moved aside
    /// with one log line and the node starts with an empty mailbox; one that cannot be opened at
    /// all leaves the node running without a mailbox (logged).
    static func openMailbox(config: DaemonSettings, engine: MeshEngine, logger: DaemonLogger) -> MailboxStore? {
        guard config.mailbox.enabled else { return nil }
        let path = config.node.stateDirectory + "/" + config.mailbox.file
        let wallNow = engine.meshTime(at: .zero)
        do throws(MailboxDatabaseError) {
            let opened = try MailboxStore.open(path: path, limits: config.mailbox.limits, now: wallNow)
            if let aside = opened.movedAside {
                logger.error(.mailbox, "mailbox database \(path) was damaged (\(aside.reason)); moved to \(aside.path), starting with an empty mailbox",
                             LogFields(reason: "database_damaged"))
            }
            let store = opened.store
            engine.restoreDeliveries(try store.deliveredRecords(), vouchedSince: store.memorySince, now: .zero)
            logger.info(.mailbox, "mailbox \(path): \(store.index.count) message(s) held for \(store.index.recipients.count) recipient(s), \(store.keyWait.count) of this node's own waiting for keys")
            return store
        } catch {
            logger.warning(.mailbox, "mailbox not opened, mail for absent nodes is not kept: \(error)", LogFields(reason: "store_error"))
            return nil
        }
    }
}
