/// The doctor's decisions: facts in, one finding per ``DoctorCheck`` out. Pure: no I/O, no clock.
public enum Doctor {
    /// Judges the facts against the set-up.
    public static func diagnose(_ facts: DoctorFacts, setup: DoctorSetup) -> DoctorReport {
        let findings = DoctorCheck.allCases.map { check -> DoctorFinding in
            if !setup.usesBluetooth, DoctorCheck.bluetooth.contains(check) {
                return DoctorFinding(check, .skip, "not used: meshnoded runs on \(setup.transport)")
            }
            return finding(check, facts, setup: setup)
        }
        return DoctorReport(findings: findings)
    }

    /// The finding of one check.
    static func finding(_ check: DoctorCheck, _ facts: DoctorFacts, setup: DoctorSetup) -> DoctorFinding {
        switch check {
        case .bluetoothd: bluetoothd(facts.bluetoothd)
        case .adapter: adapter(facts.adapter, setup: setup)
        case .roles: roles(facts.adapter)
        case .advertising: advertising(facts.adapter)
        case .privacy: privacy(facts.privacy, setup: setup)
        case .dbusPolicy: dbusPolicy(facts.dbusPolicy, setup: setup)
        case .lanInterface: lanInterface(facts.lanInterface, setup: setup)
        case .lanUnitRules: lanUnitRules(facts.lanUnitRules, interface: facts.lanInterface, setup: setup)
        case .lanFirewall: lanFirewall(facts.lanFirewall, setup: setup)
        case .serviceUser: serviceUser(facts, setup: setup)
        case .controlGroup: controlGroup(facts, setup: setup)
        case .stateDirectory: stateDirectory(facts.stateDirectory, setup: setup)
        case .identity: identity(facts.identity, setup: setup)
        case .clock: clock(facts.clock, setup: setup)
        case .meshClock: meshClock(facts.daemon, system: facts.clock)
        case .diskSpace: space(facts.space, setup: setup)
        case .unit: unit(facts.unit, setup: setup)
        case .controlSocket: controlSocket(facts.daemon, setup: setup)
        }
    }
}
