import ControlProtocol
import Glibc

/// Reads this process's memory use from `/proc/self/status`.
public enum ProcessMemory {
    /// Parses `VmRSS` and `VmHWM` (kB) from status text; nil when either is missing.
    public static func parse(status text: String) -> MemoryReport? {
        var resident: UInt64?
        var peak: UInt64?
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let value = UInt64(parts[1]) else { continue }
            let bytes = value.multipliedReportingOverflow(by: 1024)
            guard !bytes.overflow else { continue }
            switch parts[0] {
            case "VmRSS:": resident = bytes.partialValue
            case "VmHWM:": peak = bytes.partialValue
            default: break
            }
        }
        guard let resident, let peak else { return nil }
        return MemoryReport(residentBytes: resident, peakResidentBytes: peak)
    }

    /// The current values; zeros when `/proc` is unavailable.
    public static func current(path: String = "/proc/self/status") -> MemoryReport {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return MemoryReport(residentBytes: 0, peakResidentBytes: 0) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            filled += count
        }
        let text = String(decoding: buffer[..<filled], as: UTF8.self)
        return parse(status: text) ?? MemoryReport(residentBytes: 0, peakResidentBytes: 0)
    }
}
