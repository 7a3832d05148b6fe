/// bluetoothd, the adapter, its roles and its advertising instances.
extension Doctor {
    static func bluetoothd(_ fact: BluetoothdFact) -> DoctorFinding {
        switch fact {
        case .noSystemBus(let why):
            return DoctorFinding(.bluetoothd, .fail, "the system bus cannot be reached (\(why))",
                                 fix: "start D-Bus: systemctl start dbus")
        case .absent:
            return DoctorFinding(.bluetoothd, .fail, "bluetoothd is not on the system bus (nobody owns org.bluez)",
                                 fix: "systemctl enable --now bluetooth (Debian package bluez)")
        case .denied(let why):
            return DoctorFinding(.bluetoothd, .warn, "bluetoothd is on the bus but will not answer this user (\(why))",
                                 fix: "run relayctl doctor as root (sudo)")
        case .noReply(let why):
            return DoctorFinding(.bluetoothd, .fail, "bluetoothd does not answer (\(why))",
                                 fix: "systemctl restart bluetooth; journalctl -u bluetooth -b")
        case .reachable(let version?) where version < BlueZVersion.tested:
            return DoctorFinding(.bluetoothd, .warn, "bluetoothd \(version) on the system bus, older than \(BlueZVersion.tested)",
                                 fix: "upgrade bluez to \(BlueZVersion.tested) or later (the version meshnoded is tested with)")
        case .reachable(let version):
            return DoctorFinding(.bluetoothd, .ok, "bluetoothd \(version.map(\.description) ?? "(version unknown)") on the system bus")
        }
    }

    static func adapter(_ fact: AdapterFact, setup: DoctorSetup) -> DoctorFinding {
        switch fact {
        case .unknown:
            return DoctorFinding(.adapter, .skip, "\(setup.adapter) not checked: bluetoothd cannot be reached")
        case .missing(let others):
            let have = others.isEmpty ? "bluetoothd has no adapter" : "bluetoothd has \(others.joined(separator: ", "))"
            return DoctorFinding(.adapter, .fail, "no adapter \(setup.adapter) (\(have))",
                                 fix: others.isEmpty
                                     ? "check the controller: btmgmt info; dmesg | grep -i bluetooth"
                                     : "set [bluez] adapter in the configuration to one of \(others.joined(separator: ", "))")
        case .present(let state) where state.powered:
            return DoctorFinding(.adapter, .ok, "\(setup.adapter) \(state.address) powered")
        case .present(let state) where state.powerState == "off-blocked":
            return DoctorFinding(.adapter, .fail, "\(setup.adapter) \(state.address) is off: blocked by rfkill",
                                 fix: "rfkill unblock bluetooth")
        case .present(let state):
            let power = state.powerState.map { " (PowerState \($0))" } ?? ""
            return DoctorFinding(.adapter, .fail, "\(setup.adapter) \(state.address) is powered off\(power)",
                                 fix: "bluetoothctl power on (meshnoded also powers it on when it starts or finds it off)")
        }
    }

    static func roles(_ fact: AdapterFact) -> DoctorFinding {
        guard case .present(let state) = fact else {
            return DoctorFinding(.roles, .skip, "not checked: no adapter")
        }
        guard let roles = state.roles else {
            return DoctorFinding(.roles, .warn, "bluetoothd does not report the adapter's Roles",
                                 fix: "upgrade bluez to \(BlueZVersion.tested) or later to see whether both LE roles work at once")
        }
        let listed = roles.isEmpty ? "none" : roles.joined(separator: ", ")
        if roles.contains("central-peripheral") {
            return DoctorFinding(.roles, .ok, "LE central and peripheral, also at once (Roles: \(listed))")
        }
        if roles.contains("central"), roles.contains("peripheral") {
            // BlueZ 5.66 adds central-peripheral only with the kernel's experimental simultaneous-roles
            // feature on; meshnoded runs both roles at once without it (the VM scenarios, BlueZ 5.66).
            return DoctorFinding(.roles, .ok, "LE central and peripheral (Roles: \(listed))")
        }
        return DoctorFinding(.roles, .fail, "the adapter cannot be both LE central and peripheral (Roles: \(listed))",
                             fix: "use a controller with both LE roles: meshnoded advertises and dials on the same adapter")
    }

    static func advertising(_ fact: AdapterFact) -> DoctorFinding {
        guard case .present(let state) = fact else {
            return DoctorFinding(.advertising, .skip, "not checked: no adapter")
        }
        guard let instances = state.advertising else {
            if !state.powered {
                return DoctorFinding(.advertising, .skip, "not checked: the adapter is powered off")
            }
            return DoctorFinding(.advertising, .fail, "the adapter has no LE advertising manager",
                                 fix: "use an LE controller; check btmgmt info for le and advertising")
        }
        let counts = "\(instances.supported) free, \(instances.active) active"
        if instances.supported > 0 {
            return DoctorFinding(.advertising, .ok, "advertising instances: \(counts)")
        }
        if instances.active > 0 {
            return DoctorFinding(.advertising, .warn, "advertising instances: \(counts); none left for another program",
                                 fix: "if meshnoded is not running, another program holds them: stop it (btmgmt advinfo)")
        }
        return DoctorFinding(.advertising, .fail, "the controller offers no advertising instance (\(counts))",
                             fix: "use a controller with LE advertising; check btmgmt advinfo")
    }
}
