import MeshConfig
import MeshProtocol

extension MailboxSettings {
    /// The limits these settings describe.
    public var limits: MailboxLimits {
        MailboxLimits(
            retentionMilliseconds: UInt64(retention.components.seconds) * 1000, totalMessages: messages, totalBytes: bytes,
            messagesPerRecipient: messagesPerRecipient, bytesPerRecipient: bytesPerRecipient,
            messagesPerOrigin: messagesPerOrigin, messagesPerDepositor: messagesPerDepositor,
            bytesPerDepositor: bytesPerDepositor, copyIntervalMilliseconds: UInt64(copyInterval.components.seconds) * 1000)
    }
}
