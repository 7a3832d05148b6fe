import Foundation
import MeshLink

/// What one instance saw.
struct Observations {
    var links: [LinkID: LinkInfo] = [:]
    var peerOf: [LinkID: String] = [:]
    var received: [String: Int] = [:]
    var receivedSinceLoss: [String: Int] = [:]
    var sent = 0
    /// Frames one byte over the link's limit handed to the transport (each must be refused on the loop thread).
    var oversizeSent = 0
    var lastLoss: Double?
    var recoveries: [String] = []
    var firstLinkAt: Double?
}
