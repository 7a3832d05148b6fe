import Foundation
@testable import MeshCrypto
import Testing

@Suite("Identity store paths")
struct IdentityStorePathTests {
    @Test("the parent directory is what NSString.deletingLastPathComponent gives", arguments: [
        "/var/lib/meshnoded", "/var/lib/meshnoded/", "/var", "/", "state", "state/keys", "", "/a/b//",
    ])
    func parentDirectory(path: String) {
        #expect(IdentityStore.parentDirectory(of: path) == (path as NSString).deletingLastPathComponent)
    }
}
