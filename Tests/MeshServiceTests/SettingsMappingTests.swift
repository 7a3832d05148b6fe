import Flooding
import Fragmenter
import Mailbox
import MeshConfig
import MeshLink
import MeshNode
import MeshProtocol
import MQTTBridge
import Testing
import UDPTransport
@testable import MeshService

/// Sources/MeshService/Configuration: the one place meshnoded.conf's settings become the engine's and
/// the transports' configurations. Where a setting's default is also written in the configuration type
/// (the engine and transports have defaults of their own, for the simulator and tests), the two must agree.
@Suite struct SettingsMappingTests {
    @Test("Default settings give the engine the defaults of EngineConfiguration() for every setting it takes")
    func defaultSettingsGiveTheEngineItsDefaults() {
        let mapped = DaemonSettings().engineConfiguration
        let engine = EngineConfiguration()
        #expect(mapped.displayName == engine.displayName && mapped.icon == engine.icon)
        #expect(mapped.hopLimits == engine.hopLimits)
        #expect(mapped.heartbeatInterval == engine.heartbeatInterval)
        #expect(mapped.departureGrace == engine.departureGrace)
        #expect(mapped.handshakeTimeout == engine.handshakeTimeout)
        #expect(mapped.seenCapacity == engine.seenCapacity && mapped.seenLifetime == engine.seenLifetime)
        #expect(mapped.padding == engine.padding)
        #expect(mapped.rekeyInterval == engine.rekeyInterval)
        #expect(mapped.hold == engine.hold)
        #expect(mapped.budgets == engine.budgets)
        #expect(mapped.freshness == engine.freshness)
        #expect(mapped.lookup == engine.lookup)
        #expect(mapped.mailReachWindow == engine.mailReachWindow)
        #expect(mapped.bridgeDownlinkHops == engine.bridgeDownlinkHops)
        #expect(mapped.coverInterval == engine.coverInterval && engine.coverInterval == .zero)
        // Where meshnoded differs from the bare engine on purpose: managed flooding, mail kept, and
        // unkeyed links capped at half the default transport's (BlueZ's 8) slots.
        #expect(mapped.relayScheduler == .managed(ManagedFloodingParameters()))
        #expect(engine.relayScheduler == .plain)
        #expect(mapped.keepsMail && !engine.keepsMail)
        var admission = engine.admission
        admission.maxUnkeyedLinks = 4
        admission.maxUnkeyedPerTransport = [0: 4]
        #expect(mapped.admission == admission)
        #expect(mapped.frameBudget == engine.frameBudget && engine.frameBudget == .standard)
    }

    @Test("Default settings give the fragmenter, the mailbox, the UDP transport and the bridge their own defaults")
    func defaultSettingsGiveTheOtherConfigurationsTheirDefaults() throws {
        let settings = DaemonSettings()
        #expect(settings.fragmenterLimits == FragmenterLimits())
        #expect(settings.mailbox.limits == MailboxLimits())
        let bind = try UDPEndpoint(host: "127.0.0.1", port: 7001)
        #expect(try UDPTransportConfiguration(settings.udp) == UDPTransportConfiguration(bind: bind))
        let bridge = try settings.mqtt.bridgeConfiguration(
            nodeID: NodeID(hex: "00112233445566778899aabbccddeeff")!, environment: [:])
        #expect(bridge.downlink == DownlinkLimits())
    }

    @Test("[relay] sets the four relayed kinds' hop limits; the link-local kinds stay 0",
          arguments: [(UInt8(0), UInt8(16), UInt8(1), UInt8(9)), (5, 4, 7, 7)])
    func relayedKindsTakeTheirHopLimitsFromTheSettings(message: UInt8, join: UInt8, keyRequest: UInt8, keyAnswer: UInt8) {
        var relay = RelaySettings()
        (relay.ttlMessage, relay.ttlJoin, relay.ttlKeyRequest, relay.ttlKeyAnswer) = (message, join, keyRequest, keyAnswer)
        let table = relay.hopLimits
        #expect(table.limit(for: .message) == message && table.limit(for: .joinNotice) == join)
        #expect(table.limit(for: .keyRequest) == keyRequest && table.limit(for: .keyAnswer) == keyAnswer)
        for kind in [MessageKind.heartbeat, .keyExchange, .profile] { #expect(table.limit(for: kind) == 0) }
    }

    @Test("[relay] scheduler chooses the scheduler; the managed.* keys become its parameters")
    func schedulerSettingsChooseTheScheduler() {
        var relay = RelaySettings()
        relay.managedSlot = .milliseconds(5)
        relay.managedMaxWindow = .milliseconds(90)
        relay.managedCancelAfter = 3
        relay.managedCoverage = 2
        #expect(relay.schedulerChoice == .managed(ManagedFloodingParameters(
            slot: .milliseconds(5), maxWindow: .milliseconds(90), cancelAfterCopies: 3, coverage: 2)))
        relay.scheduler = .plain
        #expect(relay.schedulerChoice == .plain)
    }

    @Test("Links without keys may hold at most half the transport's slots",
          arguments: [(TransportKind.bluez, 8, 32, 4), (.bluez, 1, 32, 1), (.udp, 64, 32, 32), (.udp, 64, 10, 10)])
    func unkeyedLinksHoldAtMostHalfTheSlots(kind: TransportKind, slots: Int, maxUnkeyed: Int, expected: Int) {
        var settings = DaemonSettings()
        settings.transport.kinds = [kind]
        settings.bluez.maxConnections = slots
        settings.udp.maxLinks = slots
        settings.links.maxUnkeyed = maxUnkeyed
        #expect(settings.engineConfiguration.admission.maxUnkeyedLinks == expected)
    }

    @Test("With several transports, links without keys may hold half of all their slots")
    func unkeyedLinksHoldHalfOfEveryTransportsSlots() {
        var settings = DaemonSettings()
        settings.transport.kinds = [.bluez, .udp, .lan]
        settings.bluez.maxConnections = 8
        settings.udp.maxLinks = 10
        settings.lan.maxLinks = 6
        settings.links.maxUnkeyed = 32
        #expect(settings.engineConfiguration.admission.maxUnkeyedLinks == 12)
        // And each transport at most half its own, by port (the place in `kind`).
        #expect(settings.engineConfiguration.admission.maxUnkeyedPerTransport == [0: 4, 1: 5, 2: 3])
    }

    @Test("[links] frames_per_second sets every link's frame budget, twice that at once; 0 turns it off",
          arguments: [(500, 1_000), (0, 0)])
    func frameBudgetFromSettings(rate: Int, burst: Int) {
        var settings = DaemonSettings()
        settings.links.framesPerSecond = rate
        #expect(settings.engineConfiguration.frameBudget.framesPerSecond == rate)
        #expect(settings.engineConfiguration.frameBudget.isOff == (rate == 0))
        if rate > 0 { #expect(settings.engineConfiguration.frameBudget.burst == burst) }
    }

    @Test("[privacy] cover_interval becomes the engine's mean gap between cover packets")
    func coverIntervalFromSettings() {
        var settings = DaemonSettings()
        settings.privacy.coverInterval = .seconds(10)
        #expect(settings.engineConfiguration.coverInterval == .seconds(10))
    }

    @Test("The mailbox horizon bounds [mailbox] retention, and is its default, the store's, the key wait's and the delivery memory's")
    func theMailboxHorizonIsNamedOnce() throws {
        #expect(MailboxHorizon.duration == .seconds(24 * 3600) && MailboxHorizon.milliseconds == 86_400_000)
        #expect(DaemonSettings().mailbox.retention == MailboxHorizon.duration)
        #expect(MailboxLimits().retentionMilliseconds == MailboxHorizon.milliseconds)
        #expect(KeyWaitLimits().retentionMilliseconds == MailboxHorizon.milliseconds)
        #expect(DirectDeliveryMemory(vouchedSince: 0).horizonMilliseconds == MailboxHorizon.milliseconds)
        let longest = try ConfigLoader.parse("[mailbox]\nretention = 24h\n", file: "test.conf")
        #expect(longest.mailbox.limits.retentionMilliseconds == MailboxHorizon.milliseconds)
        #expect(throws: ConfigError(file: "test.conf", line: 2, problem: .invalidValue(
            key: "retention", section: "mailbox", value: "86401s",
            expected: "a duration like 500ms, 10s, 2m or 1h in 1m...24h"))) {
            try ConfigLoader.parse("[mailbox]\nretention = 86401s\n", file: "test.conf")
        }
    }

    @Test("[lan] on an interface announces the mesh's service UUID, the short ID and its port; discovery off announces nothing",
          arguments: [true, false])
    func lanDiscoveryMapping(_ on: Bool) throws {
        var settings = UDPSettings.lanDefaults
        settings.interface = "eth0"
        settings.discovery = on
        let address = InterfaceAddress(name: "eth0", address: 0xC0A8_0107, subnet: IPv4Subnet(address: 0xC0A8_0100, prefixLength: 24))
        let uuid = try #require(LANAnnouncement.uuidBytes("11112222-3333-4444-5555-666677778888"))
        let configuration = try UDPTransportConfiguration(settings, on: address, serviceUUID: uuid, instanceTag: 0x1A2B_3C4D)
        #expect(configuration.device == "eth0")
        guard on else {
            #expect(configuration.discovery == nil)
            return
        }
        let discovery = try #require(configuration.discovery)
        #expect(discovery.announcement == LANAnnouncement(serviceUUID: uuid, instanceTag: 0x1A2B_3C4D, port: 7101))
        #expect(discovery.address == address.address && discovery.subnet == address.subnet)
        // Loopback [udp] never discovers, whatever the setting says.
        #expect(try UDPTransportConfiguration(UDPSettings()).discovery == nil)
    }

    @Test("[lan] on an interface with IPv6 link-local alone binds it, scopes unscoped link-local peers to it, and waits for IPv4 peers")
    func lanLinkLocalOnlyMapping() throws {
        var settings = UDPSettings.lanDefaults
        settings.interface = "eth0"
        let linkLocal = try #require(IPv6Address(parsing: "fe80::a"))
        let address = InterfaceAddress(name: "eth0", index: 3, linkLocal: [linkLocal])
        settings.neighbours = [try UDPEndpoint(parsing: "[fe80::2]:7101", anyUnicast: true)]
        let configuration = try UDPTransportConfiguration(settings, on: address)
        #expect(configuration.bind.ipv6 == linkLocal && configuration.bind.scope == 3 && configuration.bind.port == 7101)
        #expect(configuration.neighbours.map(\.scope) == [3] && configuration.linkLocalScope == 3 && configuration.sources == .none)
        let discovery = try #require(configuration.discovery)
        #expect(discovery.address == nil && discovery.linkLocal == [linkLocal] && discovery.interfaceIndex == 3)
        settings.neighbours = [try UDPEndpoint(parsing: "192.168.1.20:7101", anyUnicast: true)]
        #expect(throws: UDPSettingsError.interface(.noAddress("eth0"))) { try UDPTransportConfiguration(settings, on: address) }
        settings.neighbours = [try UDPEndpoint(parsing: "[fe80::2%1]:7101", anyUnicast: true)]
        #expect(throws: UDPSettingsError.self) { try UDPTransportConfiguration(settings, on: address) }
    }
}
