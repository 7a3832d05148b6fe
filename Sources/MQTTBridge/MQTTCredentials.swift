/// The bridge's TLS files and login. The password is kept here only, never logged or printed
/// (`description` hides it).
public struct MQTTCredentials: Equatable, Sendable, CustomStringConvertible {
    /// The CA certificate file that vouches for the broker; TLS is on when set.
    public var caFile: String?
    /// This gateway's client certificate (PEM), with `keyFile`.
    public var certFile: String?
    /// The client certificate's private key (PEM).
    public var keyFile: String?
    /// The MQTT user name.
    public var username: String?
    /// The MQTT password, read from a file or a systemd credential.
    public var password: String?

    /// Creates credentials; all absent by default (plain TCP, no login).
    public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, username: String? = nil, password: String? = nil) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.username = username
        self.password = password
    }

    /// What is set, never the password itself.
    public var description: String {
        "tls=\(caFile != nil) client_cert=\(certFile != nil) user=\(username ?? "-") password=\(password == nil ? "no" : "set")"
    }
}
