/// The doctor's decisions: facts in, one finding per ``DoctorCheck`` out. Pure: no I/O, no clock.
public enum Doctor {
    /// Judges the facts against the set-up.
    public static func diagnose(_ facts: DoctorFacts, setup: DoctorSetup) -> DoctorReport {
        let findings = DoctorCheck.allCases.map { check -> DoctorFinding in
            switch check {
            case .bluetoothd: bluetoothd(facts.bluetoothd)
            case .adapter: adapter(facts.adapter, setup: setup)
            case .roles: roles(facts.adapter)
            case .advertising: advertising(facts.adapter)
            case .dbusPolicy: dbusPolicy(facts.dbusPolicy, setup: setup)
            case .serviceUser: account(.serviceUser, "user", setup.serviceUser, exists: facts.serviceUserExists)
            case .controlGroup: account(.controlGroup, "group", setup.controlGroup, exists: facts.controlGroupExists)
            case .stateDirectory: stateDirectory(facts.stateDirectory, setup: setup)
            case .identity: identity(facts.identity, setup: setup)
            case .clock: clock(facts.clock, setup: setup)
            case .meshClock: meshClock(facts.daemon, system: facts.clock)
            case .diskSpace: space(facts.space, setup: setup)
            case .unit: unit(facts.unit, setup: setup)
            case .controlSocket: controlSocket(facts.daemon, setup: setup)
            }
        }
        return DoctorReport(findings: findings)
    }
}
