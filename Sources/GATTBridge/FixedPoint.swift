import Glibc

/// `value` with `digits` digits after the point, as `String(format: "%.Nf")` writes it (without
/// Foundation, whose `String(format:)` would link ICU's data into meshnoded).
func fixed(_ value: Double, _ digits: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    var count = withVaList([digits, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
    if count >= buffer.count {
        buffer = [CChar](repeating: 0, count: Int(count) + 1)
        count = withVaList([digits, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
    }
    guard count >= 0, count < buffer.count else { return String(value) }
    return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
