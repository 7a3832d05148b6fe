import MeshProtocol

/// Process memory use.
public struct MemoryReport: Codable, Equatable, Sendable {
    /// Resident set size now (VmRSS), in bytes.
    public var residentBytes: UInt64
    /// Peak resident set size (VmHWM), in bytes.
    public var peakResidentBytes: UInt64

    /// Creates a memory report.
    public init(residentBytes: UInt64, peakResidentBytes: UInt64) {
        self.residentBytes = residentBytes
        self.peakResidentBytes = peakResidentBytes
    }
}
