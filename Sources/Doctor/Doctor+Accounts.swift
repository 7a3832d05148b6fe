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
}
