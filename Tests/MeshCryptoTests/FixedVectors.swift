import MeshProtocol
import Testing
@testable import MeshCrypto

/// The fixed test vectors published in docs/PROTOCOL.md (section D11, "Test vectors").
/// Private scalars are the byte shown repeated 32 times; the nonce is 00 01 … 0b.
enum FixedVectors {
    static func scalar(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }
    static let nonce = hex("000102030405060708090a0b")
    static let messageID = MessageID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!
    static let timestamp: UInt64 = 1_700_000_000_000
    /// Identity A's advertising name key (D13).
    static let advertisingNameKeyA = hex("8fc45df38579bd5d2f481cb9ee13870e3f6734519bc321c0d05e29bbde4fca5e")
    static let signingPublicA = hex(
        "040217e617f0b6443928278f96999e69a23a4f2c152bdf6d6cdf66e5b80282d4"
        + "ed194a7debcb97712d2dda3ca85aa8765a56f45fc758599652f2897c65306e57"
        + "94")
    static let agreementPublicA = hex(
        "04d65a93977caa3d1b081852ff57a79e465f1660577304baead505dd3a48589c"
        + "f350185e895372df6221ea3a137557e473fddb6755f05bd507c3c533fce9c912"
        + "85")
    static let signingPublicB = hex(
        "0451a7580833898ea1b183cbd7350a4099078c6ef1c1e18e970cd7683035f25e"
        + "7d0110522712b0b5a7cff081685486984a94e6831edac46e7360fa9d834a7a81"
        + "a1")
    static let agreementPublicB = hex(
        "045b36890dacbd7c9a96bb74a1ee28b3d2d75b72e09a20ef25cf8e6fd8a9f035"
        + "0d0e14bed8d4682a34d83538bdff5b96e89a6666ec0db5745d02fa1210072df7"
        + "5a")
    static let ephemeralPublicA = hex(
        "0457e977f6db7e33c3fe7acf2842ed987009caf56d458682fca447b7d3d762ab"
        + "34c5ab3770ba573bdff5414065640ffb5b346dfa84dec4db4d68e5f59cc471c2"
        + "ec")
    static let ephemeralPublicB = hex(
        "040bbbc5e8bc84bd33d1d3ce03ffac9a747f4c1993fddb2ec93a4116a86f022a"
        + "77c3c17191559a4c2a1aa57e79b8d1977da2c959172f478e341e27028d69fffb"
        + "7b")
    static let innerEphemeralPublic = hex(
        "04e45054eb5b1abd976650f7f395bf51d0d8dd193e0174e7a14a1c8c127fbdf2"
        + "dbaefe3293b0445f3f92bf8e108202e009415c899499620c71b7f6df9021132c"
        + "9c")
    static let nodeIDA = "2e0d7fe0175f5b4a799673df1034dab7"
    static let nodeIDB = "b2bb79fbd6a5d47840046b61a0413fdf"
    static let fingerprintA = "88593 25605 37882 14635 90574 77721"
    static let identityFileA = hex(
        "4d4e494401111111111111111111111111111111111111111111111111111111"
        + "1111111111222222222222222222222222222222222222222222222222222222"
        + "22222222223d7d19b2199ce514421f8cbbc86efc94e84f6a803191f884f5abb7"
        + "ba7af96a38")
    static let keyExchangeA = hex(
        "010457e977f6db7e33c3fe7acf2842ed987009caf56d458682fca447b7d3d762"
        + "ab34c5ab3770ba573bdff5414065640ffb5b346dfa84dec4db4d68e5f59cc471"
        + "c2ec040217e617f0b6443928278f96999e69a23a4f2c152bdf6d6cdf66e5b802"
        + "82d4ed194a7debcb97712d2dda3ca85aa8765a56f45fc758599652f2897c6530"
        + "6e579404d65a93977caa3d1b081852ff57a79e465f1660577304baead505dd3a"
        + "48589cf350185e895372df6221ea3a137557e473fddb6755f05bd507c3c533fc"
        + "e9c9128500000000000000000000000000000000000000000000000000000000"
        + "000000000000018bcfe56800b359c141eaf3ea7f111f9fb1d75c2dfd9ae98a58"
        + "61fdf3df7a0fe0faaed9460db40c2fd68dad284e48bdc038590f794a7ea9d059"
        + "f62296c506b1133b7f707896")
    static let keyExchangeB = hex(
        "01040bbbc5e8bc84bd33d1d3ce03ffac9a747f4c1993fddb2ec93a4116a86f02"
        + "2a77c3c17191559a4c2a1aa57e79b8d1977da2c959172f478e341e27028d69ff"
        + "fb7b0451a7580833898ea1b183cbd7350a4099078c6ef1c1e18e970cd7683035"
        + "f25e7d0110522712b0b5a7cff081685486984a94e6831edac46e7360fa9d834a"
        + "7a81a1045b36890dacbd7c9a96bb74a1ee28b3d2d75b72e09a20ef25cf8e6fd8"
        + "a9f0350d0e14bed8d4682a34d83538bdff5b96e89a6666ec0db5745d02fa1210"
        + "072df75a7db6f13201119cd522e68f5d256544eaa373e066377243a922ff2f90"
        + "cf4840bc0000018bcfe568321eb952a30a242ec6980bd23f3c647b329f751a0c"
        + "d14ef0720ab13d846278d2d6b56387304b1f6e378782653bd2d1ed42ba31f401"
        + "8cf6fd9c9a9802dc7166c628")
    static let linkSecret = hex("9d7dad66de00cb3717b04136a605341bf5f29a39cf02ad2009db5332ca9efd18")
    static let keyAToB = hex("ab8411df84446b934f2a4f3810a1e6e0a6c7a551b5d870f679a2157190d6cd36")
    static let keyBToA = hex("6c8c85ad00cf180f55e641c72e36783f6bf01914dba23f6cfa6715b52113ffc9")
    static let linkPacket = hex(
        "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf00000000000000010001020304050607"
        + "08090a0b321169e822b29522840e425d76bfc76a9d8a56e5d625237757e65f73"
        + "165b67d2c4f9391c6cafc2e97c89ffdec6919206")
    /// B's acknowledgement of A's packet 1 (PROTOCOL.md D12): highest 1, no bitmap, credit 32,
    /// sealed by B with key B→A, counter 1, the fixed nonce and message ID, frame kind 0x08.
    static let acknowledgementBody = hex("01000000000000000100000000000000000020")
    static let acknowledgementPacket = hex(
        "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf0000000000000001000102030405060708090a0b"
        + "305bec0a75e27cc620d1502ae9e3a5344845cfbf8a9e5a481249104986dd56b7b425b8958c74d855803b35134d23c162")
    /// Opaque link packets (PROTOCOL.md D14), fixed nonce, counter 1: A's "hello mesh" as kind 0x02
    /// with key A→B, and B's acknowledgement body above as kind 0x08 with key B→A.
    static let opaqueLinkPacket = hex(
        "000102030405060708090a0b5a7405844d92f846f50ea7311ad0e707f8f93e65"
        + "d625237757e65f73165b67d21e22d4a43a6fb7e33948dd048ea51355")
    static let opaqueAcknowledgementPacket = hex(
        "000102030405060708090a0b315bec0a75e27cc729d0502ae9e3a5344844ef3f"
        + "8a9e5a481249106906dd56b79eebd6ab0c4a950c49ecbd1160ef51a4")
    static let innerBox = hex(
        "04e45054eb5b1abd976650f7f395bf51d0d8dd193e0174e7a14a1c8c127fbdf2"
        + "dbaefe3293b0445f3f92bf8e108202e009415c899499620c71b7f6df9021132c"
        + "9c000102030405060708090a0b7859bbf715f6f1c217ca7988c36a5b9838a333"
        + "c50b77c1807d7ba5fc074aa0e48e59e08ad31ea1416d55c4f5c3c915be")
    static let envelopeSignature = hex(
        "c07e52dcc6cbf0d23586909f55b5f4ecddcc6422d74ebcd20f9877abe0331f7e"
        + "6e190382748e5d2a203f9b371fe173077d3ac6eeab7c19f61cd06977f8c8d2e8")

    // The private key exchange (PROTOCOL.md D11, "Private key exchange").
    static let helloA = hex(
        "020457e977f6db7e33c3fe7acf2842ed987009caf56d458682fca447b7d3d762"
            + "ab34c5ab3770ba573bdff5414065640ffb5b346dfa84dec4db4d68e5f59cc471"
            + "c2ec000000000000000000000000000000000000000000000000000000000000"
            + "0000")
    static let helloB = hex(
        "02040bbbc5e8bc84bd33d1d3ce03ffac9a747f4c1993fddb2ec93a4116a86f02"
            + "2a77c3c17191559a4c2a1aa57e79b8d1977da2c959172f478e341e27028d69ff"
            + "fb7b7db6f13201119cd522e68f5d256544eaa373e066377243a922ff2f90cf48"
            + "40bc")
    static let proofKeyA = hex(
        "97e0f02a7223e6bd45e5f01de9691d0fdaf5faebe22f96f16a757910c4c59479")
    static let proofKeyB = hex(
        "09472988129e52b848ed58af1f680d6a4fb9ad8b5b6488f3f17b7406acb214d2")
    static let proofSignatureA = hex(
        "efabc151d7b571226d4c03032d085310cc5d0e7ebac7a11f1dd518762b3b231d"
            + "13a63430c3bc9feedadde4d0b72a0591e1ebf326aa1b93b43033b0d7335ca3c1")
    static let proofA = hex(
        "000102030405060708090a0ba643007a72e021ee4b4f1697628644b0d357eecd"
            + "51df40ad6842209b2226e8d16f4a78e0f5e241f7c337ea3e4302e2835c63de88"
            + "4999ce688f31d6441e3a5d7a571cc9d35f74aff9b906dd8418eae8d2cf7e7b06"
            + "4fbc10c8352218b3d6652f0d329f2850a526b933579d23c6f7f9b165ab9e7573"
            + "e7a8a2e44f6d39e3bfc15a15453c8401babe5e4a6a257298c23ca4781a8507b1"
            + "7db46f85e96f4d4513abb3a6c6fc26ce880abe1a3be2aade7d453d2941e42550"
            + "b77dbd6d49ee3a12622146a53818ab9d5d59b8b930354f505735bee3cd5d")
    static let privateKeyAToB = hex(
        "fce9b7eca3aa1ace107758a740f5ebec8196fb2fd587f168559be17bdfa2a325")
    static let privateKeyBToA = hex(
        "a37068d644f7a442799db08dfcd36e51f118db8b5d081f6162007765613e753b")
}
