// swift-tools-version:6.0
import PackageDescription

/// MeshNode's measurement tools, apart from the product (swift-nio's Benchmarks/ is the model):
/// benchmarks, the mesh at scale, a hostile neighbour and a BlueZ transport check. A separate
/// package that depends on the main one by path through its library products, so the main
/// package's `swift build` and `swift test` never build these. Build one with
/// `swift build --package-path Benchmarks --product NAME` (docs/PERFORMANCE.md says which).
let package = Package(
    name: "MeshNodeBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "MeshNode", path: "..")],
    targets: [
        // Release-build benchmarks of the hot paths: the relay path, crypto beside `openssl speed`,
        // the fragmenter, the seen cache, the simulator (docs/PERFORMANCE.md).
        .executableTarget(name: "meshbench", dependencies: [
            .product(name: "MeshProtocol", package: "MeshNode"), .product(name: "MeshLink", package: "MeshNode"),
            .product(name: "Flooding", package: "MeshNode"), .product(name: "MeshNode", package: "MeshNode"),
            .product(name: "MeshSim", package: "MeshNode"), .product(name: "MeshCrypto", package: "MeshNode"),
            .product(name: "Fragmenter", package: "MeshNode"), .product(name: "CAllocationCounter", package: "MeshNode"),
        ]),
        // The mesh at scale: N simulated engines, plain or managed flooding (Benchmarks/scripts/mesh-scale.sh).
        .executableTarget(name: "meshsim", dependencies: [
            .product(name: "MeshProtocol", package: "MeshNode"), .product(name: "Flooding", package: "MeshNode"),
            .product(name: "MeshNode", package: "MeshNode"), .product(name: "MeshSim", package: "MeshNode"),
        ]),
        // Proves the BlueZ transport on real bluetoothd without the engine (Tests/VM/gattcheck.sh, by hand).
        .executableTarget(name: "gattcheck", dependencies: [
            .product(name: "MeshLink", package: "MeshNode"), .product(name: "GATTBridge", package: "MeshNode"),
        ]),
        // A hostile but protocol-correct neighbour that floods one node over loopback UDP: the soak,
        // the seen-journal crash test and the flood scenarios run it (scripts/test.sh builds it).
        .executableTarget(name: "meshflood", dependencies: [
            .product(name: "MeshProtocol", package: "MeshNode"), .product(name: "MeshLink", package: "MeshNode"),
            .product(name: "MeshCrypto", package: "MeshNode"), .product(name: "Fragmenter", package: "MeshNode"),
            .product(name: "UDPTransport", package: "MeshNode"),
        ]),
        // A hostile publisher with broker credentials: paced floods of garbage, oversized payloads,
        // replays, forged signatures and minted identities on the MQTT bridge's topics (scripts/mqtt_bridge.py).
        .executableTarget(name: "mqttflood", dependencies: [
            .product(name: "CMosquitto", package: "MeshNode"), .product(name: "MeshProtocol", package: "MeshNode"),
            .product(name: "MeshCrypto", package: "MeshNode"),
        ]),
        // Mailbox store costs: deposits per second, bytes written per held message, hand-over bookkeeping.
        .executableTarget(name: "mailboxbench", dependencies: [
            .product(name: "Mailbox", package: "MeshNode"), .product(name: "MeshProtocol", package: "MeshNode"),
        ]),
        // The engine alone on Benchmarks/scripts/daemon-cpu.sh's flood, beside meshnoded's whole-process CPU.
        .executableTarget(name: "enginecpu", dependencies: [
            .product(name: "MeshProtocol", package: "MeshNode"), .product(name: "MeshLink", package: "MeshNode"),
            .product(name: "MeshCrypto", package: "MeshNode"), .product(name: "MeshNode", package: "MeshNode"),
            .product(name: "Fragmenter", package: "MeshNode"), .product(name: "MeshService", package: "MeshNode"),
            .product(name: "MeshConfig", package: "MeshNode"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
