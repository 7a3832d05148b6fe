/// `[crypto]` settings.
public struct CryptoSettings: Equatable, Sendable {
    /// Pads sealed payloads to hide their length.
    public var padding = true
    /// Which key exchanges this node answers (PROTOCOL.md D3b).
    public var keyExchange = KeyExchangeSetting.privateFirst
    /// Creates the defaults.
    public init() {}
}

/// `[crypto] key_exchange`: whether a neighbour that speaks only the signed key exchange of
/// version 1 (identities in clear) is answered.
public enum KeyExchangeSetting: String, CaseIterable, Sendable {
    /// Open with the private key exchange; answer an older node in version 1 (not private, counted).
    case privateFirst = "private_first"
    /// Only the private key exchange: an older node is refused.
    case privateOnly = "private_only"
}
