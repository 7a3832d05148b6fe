import MeshProtocol

/// The origin keys of recent broadcasts, already decoded and checked against their node IDs.
///
/// Decoding the two compressed keys a broadcast carries costs more than checking its signature
/// (each is a point decompression and an OpenSSL key import); an origin sends the same key bytes
/// in every message, so the result is kept. An entry is used only for the same origin with
/// byte-for-byte the same keys, so the outcome is exactly that of decoding them again; keys that
/// fail their checks are never kept. At most `capacity` origins, the oldest entered dropped first.
struct OriginKeyCache {
    /// The most origins kept (each holds two OpenSSL public keys, about 2 KiB).
    static let capacity = 64

    private struct Entry {
        let signingKey: [UInt8]
        let agreementKey: [UInt8]
        let keys: OriginKeys
    }

    private var entries: [NodeID: Entry] = [:]
    private var order: [NodeID] = []

    /// How many origins are kept.
    var count: Int { entries.count }

    /// The checked keys `body` carries for `origin`; throws as `OriginKeys(body:origin:)` does.
    mutating func keys(for body: ChatBody, origin: NodeID) throws -> OriginKeys {
        if let entry = entries[origin], entry.signingKey == body.signingKey, entry.agreementKey == body.agreementKey {
            return entry.keys
        }
        let keys = try OriginKeys(body: body, origin: origin)
        if entries[origin] == nil {
            if order.count >= Self.capacity { entries[order.removeFirst()] = nil }
            order.append(origin)
        }
        entries[origin] = Entry(signingKey: body.signingKey, agreementKey: body.agreementKey, keys: keys)
        return keys
    }
}
