import Fragmenter

extension FragmenterCounters {
    /// The counters by name, for `relayctl stats`.
    public var named: [String: UInt64] {
        let pairs: [(String, Int)] = [
            ("frame_too_short", frameTooShort), ("zero_total", zeroTotal), ("sequence_out_of_range", sequenceOutOfRange),
            ("empty_slice", emptySlice), ("message_too_large", messageTooLarge), ("kind_mismatch", kindMismatch),
            ("total_mismatch", totalMismatch), ("link_buffer_full", linkBufferFull), ("total_buffer_full", totalBufferFull),
            ("duplicate", duplicate), ("late_duplicate", lateDuplicate), ("accepted", accepted), ("completed", completed),
            ("timed_out", timedOut), ("evicted_transfer_cap", evictedTransferCap),
            ("evicted_link_byte_cap", evictedLinkByteCap), ("evicted_total_byte_cap", evictedTotalByteCap),
            ("dropped_with_link", droppedWithLink),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, UInt64(max(0, $0.1))) })
    }
}
