import COpenSSL

/// How a process sets OpenSSL up before its first use of it.
public enum OpenSSLSetup {
    /// Initialises libcrypto without loading its error-string tables, which saves about 0.5 MiB
    /// of resident pages (docs/PERFORMANCE.md, "Footprint"). OpenSSL errors then read
    /// `error:1C800066:lib(57)::reason(102)` instead of naming library and reason;
    /// `openssl errstr 1C800066` translates them. Has effect only as the process's first OpenSSL
    /// call: OpenSSL initialises itself once, on first use.
    ///
    /// Also without OpenSSL's `atexit` clean-up (`OPENSSL_INIT_NO_ATEXIT`): `exit` would free the
    /// library's contexts and their locks while a Dispatch worker may still be in a key exchange,
    /// which then crashes in `pthread_rwlock_wrlock` (a C program exiting while two threads sign
    /// crashed in 40 of 300 runs with the clean-up, in none of 200 without; `OpenSSLExitTests`). The kernel frees the
    /// memory anyway.
    public static func initialiseWithoutErrorStrings() throws(CryptoError) {
        let options = UInt64(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS) | UInt64(OPENSSL_INIT_NO_ATEXIT)
        try OpenSSL.check(OPENSSL_init_crypto(options, nil), "OPENSSL_init_crypto")
    }
}
