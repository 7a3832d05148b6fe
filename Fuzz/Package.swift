// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for MeshNode's decoders. Built only by scripts/fuzz.sh (never by the main
/// package's `swift build` or `swift test`); each executable links libFuzzer's `main`.
let package = Package(
    name: "MeshNodeFuzz",
    dependencies: [.package(name: "MeshNode", path: "..")],
    targets: [
        // Input cursor and checks shared by the targets.
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        // The fixed identities of docs/PROTOCOL.md D11 and a keyed session pair.
        .target(name: "FuzzCryptoSupport", dependencies: [
            .product(name: "MeshProtocol", package: "MeshNode"), .product(name: "MeshCrypto", package: "MeshNode"),
        ]),
        .executableTarget(name: "fuzz-frames", dependencies: [
            "FuzzSupport", .product(name: "Fragmenter", package: "MeshNode"),
        ]),
        .executableTarget(name: "fuzz-envelope", dependencies: [
            "FuzzSupport", .product(name: "MeshProtocol", package: "MeshNode"),
        ]),
        .executableTarget(name: "fuzz-keyexchange", dependencies: [
            "FuzzSupport", "FuzzCryptoSupport", .product(name: "MeshProtocol", package: "MeshNode"),
            .product(name: "MeshCrypto", package: "MeshNode"),
        ]),
        .executableTarget(name: "fuzz-linkopen", dependencies: [
            "FuzzSupport", "FuzzCryptoSupport", .product(name: "MeshProtocol", package: "MeshNode"),
            .product(name: "MeshCrypto", package: "MeshNode"),
        ]),
        .executableTarget(name: "fuzz-control", dependencies: [
            "FuzzSupport", .product(name: "ControlProtocol", package: "MeshNode"),
            .product(name: "MeshProtocol", package: "MeshNode"),
        ]),
        .executableTarget(name: "fuzz-config", dependencies: [
            "FuzzSupport", .product(name: "MeshConfig", package: "MeshNode"),
        ]),
        .executableTarget(name: "fuzz-dbus", dependencies: [
            "FuzzSupport", .product(name: "DBusKit", package: "MeshNode"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
