import MeshProtocol
@testable import MeshCrypto

/// Decodes hex written in a test (spaces allowed); an invalid literal is a test bug, shown as empty.
func hex(_ text: String) -> [UInt8] {
    Hex.decode(text.filter { !$0.isWhitespace }) ?? []
}

/// A fixed node ID made of one repeated byte.
func nodeID(_ byte: UInt8) -> NodeID {
    NodeID(hex: String(repeating: Hex.encode([byte]), count: 16))!
}

/// A fixed message ID made of one repeated byte.
func messageID(_ byte: UInt8) -> MessageID {
    MessageID(hex: String(repeating: Hex.encode([byte]), count: 16))!
}

/// Returns `bytes` with the byte at `index` XORed with 0x01.
func flipping(_ bytes: [UInt8], at index: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= 0x01
    return copy
}
