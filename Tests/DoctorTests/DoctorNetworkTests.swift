import Doctor
import Testing

/// One fact of the privacy or LAN checks, the set-up it is judged in, and the verdict.
struct NetworkCase: Sendable, CustomTestStringConvertible {
    let name: String
    let check: DoctorCheck
    let severity: DoctorSeverity
    /// Words the summary or fix must contain.
    let mentions: String
    var setup = DoctorFixtures.setup
    let change: @Sendable (inout DoctorFacts) -> Void

    var testDescription: String { name }
}

@Suite("The privacy and LAN interface checks")
struct DoctorNetworkTests {
    static let lan = DoctorFixtures.lanSetup
    static let lanNoDiscovery: DoctorSetup = {
        var setup = lan
        setup.lanDiscovery = false
        return setup
    }()
    static let up = InterfaceState(up: true, running: true, multicast: true, ipv4: ["192.168.1.20"])

    static let cases: [NetworkCase] = [
        NetworkCase(name: "kernel privacy on", check: .privacy, severity: .ok, mentions: "resolvable private") {
            $0.privacy = .kernel(on: true)
        },
        NetworkCase(name: "kernel privacy off", check: .privacy, severity: .warn, mentions: "Privacy = device under [General]") {
            $0.privacy = .kernel(on: false)
        },
        NetworkCase(name: "the fix names allow/deny", check: .privacy, severity: .warn, mentions: "allow/deny") {
            $0.privacy = .kernel(on: false)
        },
        NetworkCase(name: "main.conf Privacy = device", check: .privacy, severity: .ok, mentions: "Privacy = device") {
            $0.privacy = .configured(value: "device", reason: "Operation not permitted")
        },
        NetworkCase(name: "main.conf Privacy = limited-network", check: .privacy, severity: .ok, mentions: "limited-network") {
            $0.privacy = .configured(value: "limited-network", reason: "Operation not permitted")
        },
        NetworkCase(name: "main.conf Privacy = off", check: .privacy, severity: .warn, mentions: "Privacy = off") {
            $0.privacy = .configured(value: "off", reason: "Operation not permitted")
        },
        NetworkCase(name: "main.conf with an unknown Privacy", check: .privacy, severity: .warn, mentions: "Privacy = yes, which bluetoothd does not know") {
            $0.privacy = .configured(value: "yes", reason: "Operation not permitted")
        },
        NetworkCase(name: "main.conf without Privacy", check: .privacy, severity: .warn, mentions: "(the default)") {
            $0.privacy = .configured(value: nil, reason: "Address family not supported by protocol")
        },
        NetworkCase(name: "main.conf unreadable", check: .privacy, severity: .skip, mentions: "Permission denied") {
            $0.privacy = .configured(value: nil, reason: "no answer", readError: "Permission denied")
        },
        NetworkCase(name: "privacy without adapter", check: .privacy, severity: .skip, mentions: "no adapter") {
            $0.privacy = .unknown
        },
        NetworkCase(name: "privacy on udp only", check: .privacy, severity: .skip, mentions: "not used",
                    setup: DoctorSetup(transport: "udp")) {
            $0.privacy = .kernel(on: false)
        },
        NetworkCase(name: "no lan transport", check: .lanInterface, severity: .skip, mentions: "not used") {
            $0.lanInterface = .present(up)
        },
        NetworkCase(name: "lan on loopback", check: .lanInterface, severity: .skip, mentions: "loopback",
                    setup: DoctorSetup(transport: "lan")) {
            $0.lanInterface = .notConfigured
        },
        NetworkCase(name: "a healthy interface", check: .lanInterface, severity: .ok, mentions: "eth0 up, 192.168.1.20, UDP port 7101, multicast on",
                    setup: lan) {
            $0.lanInterface = .present(up)
        },
        NetworkCase(name: "no interface of that name", check: .lanInterface, severity: .fail, mentions: "there are lo, wlan0", setup: lan) {
            $0.lanInterface = .missing(others: ["lo", "wlan0"])
        },
        NetworkCase(name: "interfaces not listed", check: .lanInterface, severity: .warn, mentions: "ip -4 addr show eth0", setup: lan) {
            $0.lanInterface = .unreadable("Too many open files")
        },
        NetworkCase(name: "interface down", check: .lanInterface, severity: .fail, mentions: "ip link set eth0 up", setup: lan) {
            $0.lanInterface = .present(InterfaceState(up: false, running: false, multicast: true, ipv4: ["192.168.1.20"]))
        },
        NetworkCase(name: "no address", check: .lanInterface, severity: .warn, mentions: "disable_ipv6=0", setup: lan) {
            $0.lanInterface = .present(InterfaceState(up: true, running: true, multicast: true, ipv4: []))
        },
        NetworkCase(name: "IPv6 link-local alone", check: .lanInterface, severity: .ok, mentions: "eth0 up, fe80::1, UDP port 7101", setup: lan) {
            $0.lanInterface = .present(InterfaceState(up: true, running: true, multicast: true, ipv4: [], linkLocal: ["fe80::1"]))
        },
        NetworkCase(name: "no carrier", check: .lanInterface, severity: .warn, mentions: "without a carrier", setup: lan) {
            $0.lanInterface = .present(InterfaceState(up: true, running: false, multicast: true, ipv4: ["192.168.1.20"]))
        },
        NetworkCase(name: "multicast off with discovery", check: .lanInterface, severity: .warn, mentions: "multicast on", setup: lan) {
            $0.lanInterface = .present(InterfaceState(up: true, running: true, multicast: false, ipv4: ["192.168.1.20"]))
        },
        NetworkCase(name: "multicast off without discovery", check: .lanInterface, severity: .ok, mentions: "UDP port 7101",
                    setup: lanNoDiscovery) {
            $0.lanInterface = .present(InterfaceState(up: true, running: true, multicast: false, ipv4: ["192.168.1.20"]))
        },
    ]

    @Test("each fact gets its verdict", arguments: cases)
    func verdict(_ item: NetworkCase) {
        let finding = DoctorFixtures.finding(item.check, in: DoctorFixtures.healthy(item.change), setup: item.setup)
        #expect(finding.severity == item.severity, "\(finding)")
        #expect((finding.summary + " " + (finding.fix ?? "")).contains(item.mentions), "\(finding)")
        #expect((finding.fix != nil) == (item.severity == .warn || item.severity == .fail), "\(finding)")
    }

    @Test("Privacy is read from [General] only, the last setting winning", arguments: [
        ("[General]\nPrivacy = device\n", "device"),
        ("[General]\n#Privacy = device\n", nil),
        ("[Policy]\nPrivacy = device\n", nil),
        ("[General]\nName = x\n  Privacy=limited-network  \n[LE]\nPrivacy = off\n", "limited-network"),
        ("[General]\nPrivacy = off\nPrivacy = network\n", "network"),
        ("", nil),
    ] as [(String, String?)])
    func mainConf(_ text: String, _ expected: String?) {
        #expect(PrivacyFact.mainConfPrivacy(Substring(text)) == expected)
    }

    /// A Read Controller Information reply: header, opcode, status, then return parameters up to current settings.
    static func infoEvent(event: UInt16 = 1, index: UInt16 = 0, opcode: UInt16 = 4, status: UInt8 = 0, current: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(event & 0xFF), UInt8(event >> 8), UInt8(index & 0xFF), UInt8(index >> 8), 0, 0,
                              UInt8(opcode & 0xFF), UInt8(opcode >> 8), status]
        bytes += [UInt8](repeating: 0xAA, count: 6) + [0x09, 0x02, 0x00] + [0xFF, 0xFF, 0x01, 0x00]
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: current >> (8 * $0)) }
        bytes += [UInt8](repeating: 0, count: 3 + 249 + 11)
        let length = bytes.count - 6
        bytes[4] = UInt8(length & 0xFF)
        bytes[5] = UInt8(length >> 8)
        return bytes
    }

    @Test("the kernel's reply is parsed", arguments: [
        (infoEvent(current: 0x2E01), ControllerInfoReply.settings(0x2E01)),
        (infoEvent(index: 1, current: 0x2E01), .other),
        (infoEvent(opcode: 5, current: 0), .other),
        (infoEvent(status: 0x11, current: 0), .failed(status: 0x11)),
        (Array(infoEvent(current: 0)[..<9]), .other),
        ([2, 0, 0, 0, 3, 0, 4, 0, 0x14], .failed(status: 0x14)),
        ([6, 0, 0, 0, 0, 0], .other),
    ] as [([UInt8], ControllerInfoReply)])
    func parsesReply(_ bytes: [UInt8], _ expected: ControllerInfoReply) {
        #expect(ControllerInfoReply(event: bytes, index: 0) == expected)
    }

    @Test("privacy is bit 13 of the current settings")
    func privacyBit() {
        #expect(ControllerInfoReply.privacyBit == 0x2000)
    }
}
