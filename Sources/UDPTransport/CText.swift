/// Text from a NUL-terminated C character buffer (up to the first NUL).
func textFromCBuffer(_ chars: [CChar]) -> String {
    String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
