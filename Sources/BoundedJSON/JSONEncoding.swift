/// A node of the tree an encode builds; containers write into it after they are handed out,
/// so it is a reference.
final class JSONNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object([String: JSONNode])
        case array([JSONNode])
    }

    var content: Content = .empty

    /// The finished value; a node nothing was written to is `{}`, as with Foundation's encoder.
    var value: JSONValue {
        switch content {
        case .empty: .object([:])
        case .value(let value): value
        case .object(let members): .object(members.mapValues(\.value))
        case .array(let elements): .array(elements.map(\.value))
        }
    }
}

/// The `Encoder` handed to `encode(to:)`: writes into one node.
struct JSONNodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(JSONKeyedEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return JSONUnkeyedEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleEncoder(node: node, codingPath: codingPath)
    }

    /// Encodes `value` into `node`: scalars directly, anything else through its `encode(to:)`.
    static func encode<T: Encodable>(_ value: T, into node: JSONNode, path: [any CodingKey]) throws {
        if let scalar = try JSONScalar.encode(value, path: path) {
            node.content = .value(scalar)
        } else {
            try value.encode(to: JSONNodeEncoder(node: node, codingPath: path))
        }
    }
}

/// Object members.
struct JSONKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> JSONNode { child(named: key.stringValue) }

    private func child(named name: String) -> JSONNode {
        let child = JSONNode()
        if case .object(var members) = node.content {
            node.content = .empty  // the only reference left: the insert does not copy
            members[name] = child
            node.content = .object(members)
        }
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try JSONNodeEncoder.encode(value, into: child(key), path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        JSONNodeEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONNodeEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONNodeEncoder(node: child(named: "super"), codingPath: codingPath + [JSONIndexKey(stringValue: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONNodeEncoder(node: child(key), codingPath: codingPath + [key])
    }
}

/// Array elements.
struct JSONUnkeyedEncoder: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    private func append() -> (JSONNode, [any CodingKey]) {
        let child = JSONNode()
        let path = codingPath + [JSONIndexKey(intValue: count)]
        if case .array(var elements) = node.content {
            node.content = .empty  // the only reference left: the append does not copy
            elements.append(child)
            node.content = .array(elements)
        }
        return (child, path)
    }

    mutating func encodeNil() throws { append().0.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let (child, path) = append()
        try JSONNodeEncoder.encode(value, into: child, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (child, path) = append()
        return JSONNodeEncoder(node: child, codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (child, path) = append()
        return JSONNodeEncoder(node: child, codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let (child, path) = append()
        return JSONNodeEncoder(node: child, codingPath: path)
    }
}

/// One value.
struct JSONSingleEncoder: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try JSONNodeEncoder.encode(value, into: node, path: codingPath)
    }
}

/// The key of an array element (and of `super`).
struct JSONIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
