// swift-tools-version:6.0
import PackageDescription

/// MeshNode: a headless Linux relay node for RelayChat-style Bluetooth LE mesh chat.
let package = Package(
    name: "MeshNode",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "MeshNode", targets: ["MeshNode"]),
        .executable(name: "meshnoded", targets: ["meshnoded"]),
        .executable(name: "relayctl", targets: ["relayctl"]),
        // The decoders Fuzz/ (a separate package, never built by `swift build` here) drives.
        .library(name: "MeshProtocol", targets: ["MeshProtocol"]),
        .library(name: "Fragmenter", targets: ["Fragmenter"]),
        .library(name: "MeshCrypto", targets: ["MeshCrypto"]),
        .library(name: "ControlProtocol", targets: ["ControlProtocol"]),
        .library(name: "DBusKit", targets: ["DBusKit"]),
        .library(name: "MeshConfig", targets: ["MeshConfig"]),
        .library(name: "MeshService", targets: ["MeshService"]),
        .library(name: "Mailbox", targets: ["Mailbox"]),
        .library(name: "MQTTBridge", targets: ["MQTTBridge"]),
        // What the measurement tools of Benchmarks/ (a separate package, never built here) link.
        .library(name: "MeshLink", targets: ["MeshLink"]),
        .library(name: "Flooding", targets: ["Flooding"]),
        .library(name: "MeshSim", targets: ["MeshSim"]),
        .library(name: "UDPTransport", targets: ["UDPTransport"]),
        .library(name: "GATTBridge", targets: ["GATTBridge"]),
        .library(name: "CAllocationCounter", targets: ["CAllocationCounter"]),
        // libmosquitto for Benchmarks/' mqttflood, a hostile publisher on the bridge's broker.
        .library(name: "CMosquitto", targets: ["CMosquitto"]),
    ],
    targets: [
        // C system libraries (Debian: libdbus-1-dev, libssl-dev, libsystemd-dev, libsqlite3-dev).
        .systemLibrary(name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // libmosquitto (MQTT 5), the MQTT bridge's client (Debian: libmosquitto-dev).
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto",
                       providers: [.apt(["libmosquitto-dev"])]),
        // glibc's timerfd, which the Swift Glibc module leaves out (the engine driver's relay wake-up).
        .systemLibrary(name: "CTimerFD", path: "Sources/CTimerFD"),
        // glibc's adjtimex, which the Swift Glibc module leaves out (relayctl doctor's clock check).
        .systemLibrary(name: "CTimex", path: "Sources/CTimex"),

        // Pure Swift libraries.
        .target(name: "MeshProtocol"),
        // Named, detached POSIX threads without Foundation (D-Bus loop, UDP reader, relay wake-up).
        .target(name: "PosixThread"),
        // The seam every transport sits behind: links, their events, sending.
        .target(name: "MeshLink"),
        .target(name: "Fragmenter"),
        .target(name: "MeshCrypto", dependencies: ["COpenSSL", "MeshProtocol"]),
        .target(name: "Flooding", dependencies: ["MeshProtocol"]),
        // Mailboxes (issue 22): held direct messages for absent recipients; the decisions as a pure
        // value (MailboxIndex), the envelopes in SQLite (MailboxStore).
        .target(name: "Mailbox", dependencies: ["CSQLite", "MeshProtocol"]),
        .target(name: "MeshNode", dependencies: ["MeshProtocol", "MeshLink", "Fragmenter", "MeshCrypto", "Flooding"]),
        // What a node does with its mailbox each tick, the same in meshnoded and the simulator.
        .target(name: "MailboxCourier", dependencies: ["Mailbox", "MeshNode", "MeshLink", "MeshProtocol"]),
        .target(name: "MeshSim", dependencies: ["MeshProtocol", "MeshLink", "MeshCrypto", "MeshNode", "Mailbox", "MailboxCourier"]),
        // libdbus-1 made safe: connection and event loop, messages, typed values, bounded decoding,
        // exported object trees and introspection. Knows nothing of BlueZ.
        .target(name: "DBusKit", dependencies: ["CDBus", "PosixThread"]),
        .target(name: "GATTBridge", dependencies: ["DBusKit", "MeshLink"]),
        // BLE islands bridged through an MQTT broker (docs/PROTOCOL.md Part F): topics, the uplink
        // queue, downlink admission and backoff as values; the libmosquitto client and its thread.
        .target(name: "MQTTBridge", dependencies: ["CMosquitto", "MeshProtocol", "Flooding", "PosixThread"]),
        // Loopback UDP links for tests and local meshes (docs/OPERATIONS.md, "UDP link protocol").
        .target(name: "UDPTransport", dependencies: ["MeshProtocol", "MeshLink", "PosixThread"]),
        // `relayctl doctor`'s decisions: facts about this machine in, OK / SKIP / WARN / FAIL findings out (pure).
        .target(name: "Doctor"),
        // The control socket's requests, replies, reports and events, coded with FoundationEssentials'
        // JSONEncoder and JSONDecoder within the protocol's bounds (docs/CONTROL.md).
        .target(name: "ControlProtocol", dependencies: ["MeshProtocol"]),
        // meshnoded.conf and meshnoded's flags: the option table, the parser, file:line problems, the
        // man page's option list, the settings and their defaults. A leaf: links no engine, transport,
        // crypto, D-Bus, systemd or daemon (fuzzers, relayctl doctor, tests); the settings become the
        // engine's and transports' configurations in MeshService (Sources/MeshService/Configuration).
        .target(name: "MeshConfig", dependencies: ["MeshProtocol", "MeshLink", "ControlProtocol"]),
        .target(name: "MeshService", dependencies: [
            "MeshProtocol", "MeshLink", "Fragmenter", "MeshCrypto", "Flooding", "MeshNode", "GATTBridge", "UDPTransport",
            "ControlProtocol", "MeshConfig", "CSystemd", "CTimerFD", "PosixThread", "Mailbox", "MailboxCourier", "MQTTBridge",
            "Doctor",
        ]),

        // Executables.
        .executableTarget(name: "meshnoded", dependencies: ["MeshService", "MeshCrypto"]),
        // relayctl's logic: arguments, help, the control client, formatting, doctor's probes. relayctl doctor
        // reads meshnoded's configuration (MeshConfig) and asks the system bus (DBusKit).
        .target(name: "RelayctlKit", dependencies: ["ControlProtocol", "MeshProtocol", "Doctor", "DBusKit", "CTimex", "MeshConfig"]),
        .executableTarget(name: "relayctl", dependencies: ["RelayctlKit"]),
        // Counts heap allocations by interposing malloc and friends in the executable that links it
        // (AllocationTests; Benchmarks/' meshbench); never linked into the node.
        .target(name: "CAllocationCounter"),

        // Test utilities shared by the test targets (used only by tests).
        .target(name: "MeshTestSupport", dependencies: ["MeshLink"]),

        // Tests.
        .testTarget(name: "MeshProtocolTests", dependencies: ["MeshProtocol"]),
        .testTarget(name: "MeshConfigTests", dependencies: ["MeshConfig", "ControlProtocol", "MeshLink", "MeshTestSupport"]),
        .testTarget(name: "DoctorTests", dependencies: ["Doctor"]),
        .testTarget(name: "RelayctlKitTests", dependencies: [
            "RelayctlKit", "ControlProtocol", "MeshConfig", "Doctor", "DBusKit", "MeshTestSupport",
        ]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "MeshProtocol"]),
        .testTarget(name: "FragmenterTests", dependencies: ["MeshProtocol", "Fragmenter"]),
        .testTarget(name: "MeshCryptoTests", dependencies: ["MeshProtocol", "MeshCrypto"]),
        .testTarget(name: "FloodingTests", dependencies: ["MeshProtocol", "Flooding"]),
        .testTarget(name: "MailboxTests", dependencies: ["MeshProtocol", "Mailbox"]),
        .testTarget(name: "MeshNodeTests", dependencies: [
            "MeshProtocol", "MeshLink", "MeshCrypto", "Flooding", "MeshNode", "MeshSim", "Mailbox", "MailboxCourier", "MeshTestSupport",
        ]),
        .testTarget(name: "MailboxCourierTests", dependencies: ["MailboxCourier", "MeshLink", "MeshProtocol"]),
        .testTarget(name: "GATTBridgeTests", dependencies: ["MeshLink", "DBusKit", "GATTBridge", "MeshTestSupport"]),
        .testTarget(name: "MeshServiceTests", dependencies: [
            "MeshProtocol", "MeshCrypto", "Flooding", "MeshNode", "MeshService", "MeshConfig", "ControlProtocol", "RelayctlKit", "Doctor",
            "MeshLink", "UDPTransport", "MeshTestSupport", "MQTTBridge", "Fragmenter", "Mailbox",
        ]),
        .testTarget(name: "UDPTransportTests", dependencies: ["MeshProtocol", "MeshLink", "UDPTransport", "MeshTestSupport", "PosixThread"]),
        .testTarget(name: "MQTTBridgeTests", dependencies: ["MQTTBridge", "MeshProtocol", "MeshCrypto"]),
        // Allocations per relayed message against thresholds (CAllocationCounter interposes malloc in the test runner).
        .testTarget(name: "AllocationTests", dependencies: ["CAllocationCounter", "MeshNode", "MeshSim"]),
        .testTarget(name: "DaemonTests", dependencies: ["MeshService", "ControlProtocol", "MeshTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
