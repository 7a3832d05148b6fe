extension Envelope {
    /// The envelope's flags byte, derived from its optional fields.
    public var flags: EnvelopeFlags {
        var flags: EnvelopeFlags = []
        if destination != nil { flags.insert(.hasDestination) }
        if isInnerSealed { flags.insert(.innerSealed) }
        if signature != nil { flags.insert(.signed) }
        return flags
    }

    /// Encodes the envelope in wire format version 1.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + route.count * NodeID.byteCount + payload.count)
        writer.write(Self.currentVersion)
        writer.write(kind.rawValue)
        writer.write(flags.rawValue)
        writer.write(hops)
        writeFixedFields(into: &writer)
        writer.write(UInt8(truncatingIfNeeded: route.count))
        for node in route { writer.write(bytes: node.bytes) }
        if let signature { writer.write(bytes: signature) }
        return writer.bytes
    }

    /// The length of `encoded()`, computed without encoding.
    public var encodedSize: Int {
        // In steps: Swift 6.0's type checker gives up on the one-expression sum.
        let destinationSize: Int = destination == nil ? 0 : NodeID.byteCount
        let header: Int = 4 + MessageID.byteCount + NodeID.byteCount + destinationSize + 8 + 4
        let routeSize: Int = 1 + route.count * NodeID.byteCount
        return header + payload.count + routeSize + (signature?.count ?? 0)
    }

    /// The bytes an origin signs: every field a relay may not change, hops and route excluded.
    public var signedBytes: [UInt8] {
        var writer = ByteWriter(capacity: 64 + payload.count)
        writer.write(bytes: Array("MeshNode envelope v1".utf8))
        writer.write(Self.currentVersion)
        writer.write(kind.rawValue)
        writer.write(flags.subtracting(.signed).rawValue)
        writeFixedFields(into: &writer)
        return writer.bytes
    }

    private func writeFixedFields(into writer: inout ByteWriter) {
        writer.write(bytes: messageID.bytes)
        writer.write(bytes: origin.bytes)
        if let destination { writer.write(bytes: destination.bytes) }
        writer.write(timestamp)
        writer.write(UInt32(truncatingIfNeeded: payload.count))
        writer.write(bytes: payload)
    }

    /// Decodes wire format version 1; any byte string gives a value or a typed error.
    public init<Bytes: Sequence>(decoding bytes: Bytes) throws(WireError) where Bytes.Element == UInt8 {
        var reader = ByteReader(bytes)
        let version = try reader.readUInt8()
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let kindByte = try reader.readUInt8()
        guard let kind = MessageKind(rawValue: kindByte) else { throw .unknownKind(kindByte) }
        let flags = EnvelopeFlags(rawValue: try reader.readUInt8())
        guard flags.isSubset(of: .known) else { throw .reservedFlags(flags.subtracting(.known).rawValue) }
        guard !flags.contains(.innerSealed) || flags.contains(.hasDestination) else {
            throw .invalidField("inner-sealed envelope without a destination")
        }
        let hops = try reader.readUInt8()
        let messageID = try MessageID(from: &reader)
        let origin = try NodeID(from: &reader)
        let destination = flags.contains(.hasDestination) ? try NodeID(from: &reader) : nil
        let timestamp = try reader.readUInt64()
        let payloadLength = Int(try reader.readUInt32())
        guard payloadLength <= Self.maxPayloadLength else {
            throw .lengthOutOfRange(field: "payload", value: payloadLength, limit: Self.maxPayloadLength)
        }
        let payload = try reader.readBytes(payloadLength)
        let routeCount = Int(try reader.readUInt8())
        guard routeCount <= Self.maxRouteLength else {
            throw .lengthOutOfRange(field: "route", value: routeCount, limit: Self.maxRouteLength)
        }
        var route: [NodeID] = []
        route.reserveCapacity(routeCount)
        for _ in 0..<routeCount { route.append(try NodeID(from: &reader)) }
        let signature = flags.contains(.signed) ? try reader.readBytes(Self.signatureLength) : nil
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        self.init(
            kind: kind, messageID: messageID, origin: origin, destination: destination, hops: hops,
            route: route, timestamp: timestamp, isInnerSealed: flags.contains(.innerSealed),
            payload: payload, signature: signature)
    }
}
