import COpenSSL
import Glibc

/// Opens and parses a PEM file a setting names (the MQTT bridge's CA, client certificate and
/// key), so a bad one is a configuration error at `--check-config` and start-up, naming the file,
/// rather than a TLS failure later. Reads at most ``maxBytes``.
public enum PEMFileCheck {
    /// What the file must hold.
    public enum Content: Sendable {
        /// One or more X.509 certificates (a CA bundle, a client certificate).
        case certificates
        /// An unencrypted private key.
        case privateKey
    }

    /// The largest PEM file read (a CA bundle of a few hundred certificates fits).
    public static let maxBytes = 1 << 20

    /// nil when the file at `path` opens and holds `content`; otherwise why not, one phrase.
    public static func problem(_ path: String, holds content: Content) -> String? {
        switch read(path) {
        case .failure(let reason): return reason
        case .bytes(let bytes): return parse(bytes, content)
        }
    }

    /// nil when the key at `keyPath` belongs to the first certificate at `certificatePath`.
    public static func pairProblem(certificate certificatePath: String, key keyPath: String) -> String? {
        guard case .bytes(let certificateBytes) = read(certificatePath), case .bytes(let keyBytes) = read(keyPath) else {
            return nil
        }
        return withBIO(certificateBytes) { certificateBIO in
            guard let certificate = PEM_read_bio_X509(certificateBIO, nil, nil, nil) else { return nil }
            defer { X509_free(certificate) }
            return withBIO(keyBytes) { keyBIO in
                guard let key = PEM_read_bio_PrivateKey(keyBIO, nil, nil, nil) else { return nil }
                defer { EVP_PKEY_free(key) }
                let matches = X509_check_private_key(certificate, key) == 1
                ERR_clear_error()
                return matches ? nil : "the key does not belong to the certificate \(certificatePath)"
            }
        }
    }

    private enum ReadOutcome {
        case bytes([UInt8])
        case failure(String)
    }

    private static func parse(_ bytes: [UInt8], _ content: Content) -> String? {
        defer { ERR_clear_error() }
        return withBIO(bytes) { bio in
            switch content {
            case .certificates:
                guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else {
                    return "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
                }
                X509_free(certificate)
                return nil
            case .privateKey:
                // A null password callback with an empty password: an encrypted key fails here, as
                // it would in libmosquitto, which cannot ask for its password under systemd.
                var empty: [CChar] = [0]
                guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, &empty) else {
                    return "holds no unencrypted PEM private key"
                }
                EVP_PKEY_free(key)
                return nil
            }
        }
    }

    private static func withBIO(_ bytes: [UInt8], _ body: (OpaquePointer) -> String?) -> String? {
        bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return "out of memory" }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    private static func read(_ path: String) -> ReadOutcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure("not a regular file") }
        var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return .failure("cannot read: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            count += got
        }
        guard count <= maxBytes else { return .failure("larger than \(maxBytes) bytes") }
        return .bytes(Array(bytes[..<count]))
    }
}
