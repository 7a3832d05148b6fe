import MeshProtocol

/// The `id` result: who this node is.
public struct IdentityReport: Codable, Equatable, Sendable {
    /// This node's ID, 32 hex digits.
    public var nodeID: String
    /// The first 8 hex digits.
    public var shortID: String
    /// A fingerprint people compare out of band.
    public var fingerprint: String
    /// The P-256 signing public key, X9.63, hex.
    public var signingKey: String
    /// The P-256 key-agreement public key, X9.63, hex.
    public var agreementKey: String

    /// Creates an identity report; the keys are hex-encoded here.
    public init(nodeID: NodeID, fingerprint: String, signingKey: [UInt8], agreementKey: [UInt8]) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.fingerprint = fingerprint
        self.signingKey = Hex.encode(signingKey)
        self.agreementKey = Hex.encode(agreementKey)
    }
}
