import MeshProtocol

/// A node ID whose 16 bytes are `byte`.
func node(_ byte: UInt8) -> NodeID { try! NodeID(bytes: [UInt8](repeating: byte, count: 16)) }

/// A message ID made of `value` (big-endian, the rest zero).
func message(_ value: UInt64) -> MessageID {
    try! MessageID(bytes: [UInt8](repeating: 0, count: 8) + withUnsafeBytes(of: value.bigEndian) { Array($0) })
}

/// 2026-01-01T00:00:00Z in milliseconds.
let epoch: UInt64 = 1_767_225_600_000

/// A distinct node ID for each `value`, none of them equal to a `node(_:)` ID.
func mintedNode(_ value: UInt64) -> NodeID {
    try! NodeID(bytes: [0x4d, 0x49, 0x4e, 0x54, 0, 0, 0, 0] + withUnsafeBytes(of: value.bigEndian) { Array($0) })
}
