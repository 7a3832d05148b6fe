import COpenSSL

/// Helpers that turn OpenSSL return codes into typed errors.
enum OpenSSL {
    /// Throws unless `result` is exactly 1, OpenSSL's success value for the calls we use.
    static func check(_ result: Int32, _ function: String) throws(CryptoError) {
        guard result == 1 else { throw failure(function) }
    }

    /// Unwraps a pointer an OpenSSL constructor returned, throwing if it is NULL.
    static func nonNull<Pointer>(_ pointer: Pointer?, _ function: String) throws(CryptoError) -> Pointer {
        guard let pointer else { throw failure(function) }
        return pointer
    }

    /// Builds an error from the thread's OpenSSL error queue and clears the queue.
    static func failure(_ function: String) -> CryptoError {
        let code = ERR_get_error()
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        ERR_clear_error()
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .openSSL(function: function, reason: code == 0 ? "no error queued" : text)
    }

    /// Drops errors that an expected failure (a bad tag, a bad signature) left on the queue.
    static func clearErrors() { ERR_clear_error() }
}
