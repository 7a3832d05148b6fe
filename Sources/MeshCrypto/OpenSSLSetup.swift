import COpenSSL

/// How a process sets OpenSSL up before its first use of it.
public enum OpenSSLSetup {
    /// Initialises libcrypto without loading its error-string tables, which saves about 0.5 MiB
    /// of resident pages (docs/PERFORMANCE.md, "Footprint"). OpenSSL errors then read
    /// `error:1C800066:lib(57)::reason(102)` instead of naming library and reason;
    /// `openssl errstr 1C800066` translates them. Has effect only as the process's first OpenSSL
    /// call: OpenSSL initialises itself once, on first use.
    public static func initialiseWithoutErrorStrings() throws(CryptoError) {
        try OpenSSL.check(OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS), nil), "OPENSSL_init_crypto")
    }
}
