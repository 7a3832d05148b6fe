import COpenSSL

/// An `OSSL_PARAM` array whose key names and values live in memory it owns.
///
/// `OSSL_PARAM` stores raw pointers, so everything it points at is copied here and stays put
/// until the list is destroyed; value bytes are cleansed before they are freed (they may be
/// key material).
struct ParamList: ~Copyable {
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var params: [OSSL_PARAM] = []

    init() {}

    deinit {
        for buffer in buffers {
            OPENSSL_cleanse(buffer.baseAddress, buffer.count)
            buffer.deallocate()
        }
    }

    /// Adds a UTF-8 string parameter (for example a digest or group name).
    mutating func addUTF8(_ key: String, _ value: String) {
        let name = pin(Array(key.utf8) + [0])
        let text = pin(Array(value.utf8) + [0])
        params.append(OSSL_PARAM_construct_utf8_string(
            name.assumingMemoryBound(to: CChar.self), text.assumingMemoryBound(to: CChar.self), 0))
    }

    /// Adds an octet-string parameter; an empty value still gets a valid (1-byte) buffer.
    mutating func addOctets(_ key: String, _ value: [UInt8]) {
        let name = pin(Array(key.utf8) + [0])
        let data = pin(value)
        params.append(OSSL_PARAM_construct_octet_string(
            name.assumingMemoryBound(to: CChar.self), data, value.count))
    }

    /// Calls `body` with the terminated array.
    func withParams<Result>(_ body: (UnsafeMutablePointer<OSSL_PARAM>) -> Result) -> Result {
        var terminated = params
        terminated.append(OSSL_PARAM_construct_end())
        return terminated.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    private mutating func pin(_ bytes: [UInt8]) -> UnsafeMutableRawPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        buffer.copyBytes(from: bytes)
        buffers.append(buffer)
        return buffer.baseAddress!
    }
}
