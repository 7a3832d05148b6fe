import Glibc

/// `value` with `digits` digits after the point, as `String(format: "%.Nf")` writes it (without
/// Foundation, whose `String(format:)` links ICU's data).
func fixed(_ value: Double, _ digits: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = withVaList([digits, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
    guard count > 0 else { return String(value) }
    return String(decoding: buffer.prefix(min(Int(count), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
