import MeshProtocol

/// The wire form: one flat object, `type` and `time` and the case's fields, absent optionals
/// left out (docs/CONTROL.md, "Watching").
extension WatchEvent: Codable {
    private enum Field: String, CodingKey {
        case type, time, messageID, from, to, hops, text, nodeID, name, reason, linkID, role, address, transport
    }

    /// Decodes an event by its `type`; a type this version does not know decodes as `.unknown`.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Field.self)
        let type = try object.decode(String.self, forKey: .type)
        let time = try object.decode(Double.self, forKey: .time)
        switch WatchEventType(rawValue: type) {
        case .message?:
            self = .message(
                id: try Self.hex(MessageID.init(hex:), object, .messageID), from: try Self.hex(NodeID.init(hex:), object, .from),
                to: try object.decodeIfPresent(String.self, forKey: .to) == nil ? nil : Self.hex(NodeID.init(hex:), object, .to),
                hops: try object.decode(Int.self, forKey: .hops), text: try object.decode(String.self, forKey: .text), time: time)
        case .neighbourJoined?:
            self = .neighbourJoined(
                node: try Self.hex(NodeID.init(hex:), object, .nodeID), name: try object.decodeIfPresent(String.self, forKey: .name),
                time: time)
        case .neighbourLeft?:
            self = .neighbourLeft(
                node: try Self.hex(NodeID.init(hex:), object, .nodeID), name: try object.decodeIfPresent(String.self, forKey: .name),
                reason: try object.decodeIfPresent(String.self, forKey: .reason), time: time)
        case .linkUp?:
            self = .linkUp(
                link: try object.decode(UInt64.self, forKey: .linkID), role: try object.decode(String.self, forKey: .role),
                address: try object.decode(String.self, forKey: .address),
                transport: try object.decodeIfPresent(String.self, forKey: .transport), time: time)
        case .linkDown?:
            self = .linkDown(
                link: try object.decode(UInt64.self, forKey: .linkID), reason: try object.decode(String.self, forKey: .reason),
                transport: try object.decodeIfPresent(String.self, forKey: .transport), time: time)
        case nil:
            self = .unknown(type: type, time: time)
        }
    }

    /// Reads an ID written as hex digits.
    private static func hex<ID>(
        _ parse: (String) -> ID?, _ object: KeyedDecodingContainer<Field>, _ field: Field
    ) throws -> ID {
        let text = try object.decode(String.self, forKey: field)
        guard let id = parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: field, in: object, debugDescription: "not 32 hex digits")
        }
        return id
    }

    /// Encodes the flat object.
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: Field.self)
        try object.encode(type, forKey: .type)
        try object.encode(time, forKey: .time)
        switch self {
        case .message(let id, let from, let to, let hops, let text, _):
            try object.encode(id.hex, forKey: .messageID)
            try object.encode(from.hex, forKey: .from)
            try object.encodeIfPresent(to?.hex, forKey: .to)
            try object.encode(hops, forKey: .hops)
            try object.encode(text, forKey: .text)
        case .neighbourJoined(let node, let name, _):
            try object.encode(node.hex, forKey: .nodeID)
            try object.encodeIfPresent(name, forKey: .name)
        case .neighbourLeft(let node, let name, let reason, _):
            try object.encode(node.hex, forKey: .nodeID)
            try object.encodeIfPresent(name, forKey: .name)
            try object.encodeIfPresent(reason, forKey: .reason)
        case .linkUp(let link, let role, let address, let transport, _):
            try object.encode(link, forKey: .linkID)
            try object.encode(role, forKey: .role)
            try object.encode(address, forKey: .address)
            try object.encodeIfPresent(transport, forKey: .transport)
        case .linkDown(let link, let reason, let transport, _):
            try object.encode(link, forKey: .linkID)
            try object.encode(reason, forKey: .reason)
            try object.encodeIfPresent(transport, forKey: .transport)
        case .unknown:
            break
        }
    }
}
