import COpenSSL

/// Owns one `EVP_PKEY` and frees it when the last reference goes.
///
/// `@unchecked Sendable`: the key is never modified after it is built; every operation makes
/// its own `EVP_PKEY_CTX`/`EVP_MD_CTX`, and OpenSSL 3 documents `EVP_PKEY` objects as safe
/// for concurrent read-only use from several threads (reference counts are atomic).
final class EVPKey: @unchecked Sendable {
    /// The owned key.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }
}
