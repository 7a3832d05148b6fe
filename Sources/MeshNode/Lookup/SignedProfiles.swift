import MeshProtocol

/// The signed profile envelopes this node can hand on in key answers, as their origins signed
/// them (hops 0, route `[origin]`): from neighbours' profiles, join notices and key answers.
///
/// At most `capacity` of them; the one stored longest ago goes first. An entry is used only
/// while the engine still knows the node (a neighbour or a known node).
struct SignedProfiles: Sendable {
    let capacity: Int
    private var envelopes: [NodeID: Envelope] = [:]
    private var order: [NodeID] = []

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { envelopes.count }

    /// Stores a verified profile or join notice envelope of `node`, normalised to hops 0 and
    /// route `[node]` (outside the signature).
    mutating func store(_ envelope: Envelope, of node: NodeID) {
        var normal = envelope
        normal.hops = 0
        normal.route = [node]
        if envelopes[node] == nil {
            if order.count >= capacity { envelopes[order.removeFirst()] = nil }
            order.append(node)
        }
        envelopes[node] = normal
    }

    /// The envelope stored for `node`.
    func envelope(of node: NodeID) -> Envelope? { envelopes[node] }
}
