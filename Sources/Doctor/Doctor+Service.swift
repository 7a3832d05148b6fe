/// The systemd unit and the control socket.
extension Doctor {
    static func unit(_ fact: UnitFact, setup: DoctorSetup) -> DoctorFinding {
        let name = setup.unit
        if let runs = setup.daemon, !runs.systemd {
            return DoctorFinding(.unit, .skip, "meshnoded runs by hand (pid \(runs.pid), user \(runs.user)), not as \(name)")
        }
        switch fact {
        case .noSystemd:
            return DoctorFinding(.unit, .skip, "no systemd on the system bus; \(name) not checked")
        case .noReply(let why):
            return DoctorFinding(.unit, .warn, "systemd did not answer about \(name) (\(why))", fix: "systemctl status \(name)")
        case .notInstalled:
            return DoctorFinding(.unit, .fail, "\(name) is not installed", fix: "install the package (dpkg -i meshnoded_*.deb)")
        case .loaded(let state):
            let shown = "\(name) \(state.active) (\(state.sub)), \(state.fileState.isEmpty ? "no unit file state" : state.fileState)"
            switch state.active {
            case "active" where state.fileState == "enabled":
                return DoctorFinding(.unit, .ok, shown)
            case "active":
                return DoctorFinding(.unit, .warn, shown + ": it will not start at boot", fix: "systemctl enable \(name)")
            case "failed":
                return DoctorFinding(.unit, .fail, shown, fix: "journalctl -u \(name) -b; then systemctl restart \(name)")
            case "inactive":
                return DoctorFinding(.unit, .fail, shown, fix: "systemctl enable --now \(name)")
            default:
                return DoctorFinding(.unit, .warn, shown, fix: "look again in a few seconds: systemctl status \(name)")
            }
        }
    }

    static func controlSocket(_ fact: DaemonFact, setup: DoctorSetup) -> DoctorFinding {
        let path = setup.controlSocket
        switch fact {
        case .cannotConnect(let code, let why) where code == permissionDenied:
            return DoctorFinding(.controlSocket, .fail, "\(path): \(why)",
                                 fix: "run as root, or join the control group: usermod -aG \(setup.controlGroup) $USER (then log in again)")
        case .cannotConnect(_, let why):
            return DoctorFinding(.controlSocket, .fail, "\(path): \(why); meshnoded is not running there",
                                 fix: "systemctl start \(setup.unit); journalctl -u \(setup.unit) -b (or --config PATH if it runs with another configuration)")
        case .noReply(let why):
            return DoctorFinding(.controlSocket, .fail, "\(path) connected but the daemon did not answer (\(why))",
                                 fix: "journalctl -u \(setup.unit) -b; systemctl restart \(setup.unit)")
        case .answered(let status):
            let shown: String
            if let runs = status.runs {
                let transport = runs.transport + (status.transportState.map { " (\($0))" } ?? "")
                shown = "meshnoded \(status.version) answers: \(status.state) on \(transport), user \(runs.user), pid \(runs.pid), "
                    + "config \(runs.configFile ?? "none (defaults and flags)")"
            } else {
                shown = "meshnoded \(status.version) answers: \(status.state)" + (status.transportState.map { ", transport \($0)" } ?? "")
            }
            if status.state == "running", status.transportState.map({ $0.hasPrefix("running") }) ?? true {
                return DoctorFinding(.controlSocket, .ok, shown)
            }
            return DoctorFinding(.controlSocket, .warn, shown, fix: "it is waiting for what the lines above report")
        }
    }

    /// EACCES on Linux.
    static let permissionDenied: Int32 = 13
}
