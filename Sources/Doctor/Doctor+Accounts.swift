/// The D-Bus policy, the service user and the control group.
extension Doctor {
    static func dbusPolicy(_ fact: DBusPolicyFact, setup: DoctorSetup) -> DoctorFinding {
        switch fact {
        case .missing(let searched):
            return DoctorFinding(.dbusPolicy, .fail, "no D-Bus policy for meshnoded (looked in \(searched.joined(separator: ", ")))",
                                 fix: "install the package (or make install), which puts systemd/meshnoded-dbus.conf in "
                                     + "/usr/share/dbus-1/system.d/meshnoded.conf")
        case .unreadable(let path, let reason):
            return DoctorFinding(.dbusPolicy, .warn, "\(path) cannot be read (\(reason))",
                                 fix: "run relayctl doctor as root")
        case .present(let path, let namesUser) where namesUser:
            return DoctorFinding(.dbusPolicy, .ok, "\(path) lets user \(setup.serviceUser) talk to org.bluez")
        case .present(let path, _):
            return DoctorFinding(.dbusPolicy, .fail, "\(path) has no <policy user=\"\(setup.serviceUser)\">",
                                 fix: "reinstall the policy from systemd/meshnoded-dbus.conf")
        }
    }

    static func account(_ check: DoctorCheck, _ kind: String, _ name: String, exists: Bool) -> DoctorFinding {
        if exists { return DoctorFinding(check, .ok, "\(kind) \(name) exists") }
        let fix = "systemd-sysusers meshnoded.conf (the package does it)"
        return DoctorFinding(check, .fail, "no \(kind) \(name)",
                             fix: check == .controlGroup ? fix + ", or set [node] control_group to a group that exists" : fix)
    }

    static func serviceUser(_ facts: DoctorFacts, setup: DoctorSetup) -> DoctorFinding {
        if let runs = setup.daemon {
            return DoctorFinding(.serviceUser, .ok, "meshnoded runs as user \(runs.user) (pid \(runs.pid))")
        }
        return account(.serviceUser, "user", setup.serviceUser, exists: facts.serviceUserExists)
    }

    static func controlGroup(_ facts: DoctorFacts, setup: DoctorSetup) -> DoctorFinding {
        if !facts.controlGroupExists, let runs = setup.daemon {
            return DoctorFinding(.controlGroup, .skip,
                                 "no group \(setup.controlGroup): the socket has meshnoded's own group, so user \(runs.user) and root can use it",
                                 fix: "to let other users in: groupadd \(setup.controlGroup), restart meshnoded, usermod -aG \(setup.controlGroup) USER")
        }
        return account(.controlGroup, "group", setup.controlGroup, exists: facts.controlGroupExists)
    }
}
