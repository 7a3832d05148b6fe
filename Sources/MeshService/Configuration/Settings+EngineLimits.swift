import Flooding
import MeshConfig
import MeshNode
import MeshProtocol

extension BudgetSettings {
    /// The engine's budgets for these settings (the fields `[budget]` does not name keep `BudgetLimits()`'s).
    public var limits: BudgetLimits {
        BudgetLimits(
            messagesPerSecond: Double(messagesPerSecond), messageBurst: Double(messageBurst),
            bytesPerSecond: Double(bytesPerSecond), byteBurst: Double(byteBurst),
            verificationsPerSecond: Double(verificationsPerSecond), verificationBurst: Double(verificationBurst))
    }
}

extension HoldSettings {
    /// The engine's hold limits for these settings.
    public var limits: HoldLimits {
        HoldLimits(
            messagesPerNeighbour: messages, bytesPerNeighbour: bytes, totalBytes: totalBytes, maxAge: maxAge,
            resendWindow: resendWindow)
    }
}

extension LinkSettings {
    /// The engine's admission limits for these settings (before the daemon caps `maxUnkeyedLinks`
    /// at half the slots of its transports together, in `DaemonSettings.engineConfiguration`).
    public var limits: LinkAdmissionLimits {
        LinkAdmissionLimits(maxUnkeyedLinks: maxUnkeyed, maxUnkeyedPerAddress: maxUnkeyedPerAddress,
                            keyDeadline: keyDeadline, neighbourMemory: neighbourMemory)
    }
}

extension LookupSettings {
    /// The engine's key lookup limits for these settings.
    public var limits: KeyLookupLimits {
        KeyLookupLimits(answerDelay: answerDelay, timeout: timeout, retryInterval: retryInterval)
    }
}

extension RelaySettings {
    /// The scheduler these settings choose, with its parameters.
    public var schedulerChoice: RelaySchedulerChoice {
        switch scheduler {
        case .plain: .plain
        case .managed:
            .managed(ManagedFloodingParameters(
                slot: managedSlot, maxWindow: managedMaxWindow, cancelAfterCopies: managedCancelAfter,
                coverage: managedCoverage))
        }
    }

    /// The hop-limit table these settings give: the defaults with the four relayed kinds set.
    public var hopLimits: HopLimits {
        var table = HopLimits.relayChatDefaults
        table.limits[.message] = ttlMessage
        table.limits[.joinNotice] = ttlJoin
        table.limits[.keyRequest] = ttlKeyRequest
        table.limits[.keyAnswer] = ttlKeyAnswer
        return table
    }
}

extension SeenSettings {
    /// The freshness rule these settings give.
    public var freshness: FreshnessRule { FreshnessRule(maxClockSkew: maxClockSkew, enabled: checkTimestamps) }

    /// How long an ID is remembered, in milliseconds (the seen journal's lifetime).
    var expiryMilliseconds: UInt64 { UInt64(expiry.components.seconds) * 1000 }
}
