/// The state directory, the identity file and the space they live on.
extension Doctor {
    static func stateDirectory(_ fact: PathFact, setup: DoctorSetup) -> DoctorFinding {
        let path = setup.stateDirectory
        switch fact {
        case .missing:
            return DoctorFinding(.stateDirectory, .warn, "\(path) does not exist yet",
                                 fix: "systemd creates it when meshnoded.service starts (StateDirectory=); "
                                     + "by hand: install -d -m 700 -o \(setup.serviceUser) \(path)")
        case .inaccessible(let why):
            return DoctorFinding(.stateDirectory, .warn, "\(path) cannot be looked at (\(why))", fix: "run relayctl doctor as root")
        case .present(let status) where status.kind != .directory:
            return DoctorFinding(.stateDirectory, .fail, "\(path) is not a directory", fix: "move it away; meshnoded makes the directory")
        case .present(let status) where status.owner != setup.serviceUser:
            return DoctorFinding(.stateDirectory, .fail, "\(path) belongs to \(status.owner), not \(setup.serviceUser)",
                                 fix: "chown -R \(setup.serviceUser): \(path)")
        case .present(let status) where status.mode & 0o077 != 0:
            return DoctorFinding(.stateDirectory, .warn, "\(path) has mode \(status.octalMode), open to group or others",
                                 fix: "chmod 700 \(path)")
        case .present(let status):
            return DoctorFinding(.stateDirectory, .ok, "\(path) mode \(status.octalMode), owner \(status.owner)")
        }
    }

    static func identity(_ fact: PathFact, setup: DoctorSetup) -> DoctorFinding {
        let path = setup.identityFile
        switch fact {
        case .missing:
            return DoctorFinding(.identity, .warn, "no identity file \(path) yet",
                                 fix: "meshnoded creates it on its first start; restore a backup to keep an earlier node ID")
        case .inaccessible(let why):
            return DoctorFinding(.identity, .warn, "\(path) cannot be looked at (\(why))", fix: "run relayctl doctor as root")
        case .present(let status) where status.kind != .regular:
            return DoctorFinding(.identity, .fail, "\(path) is not a regular file (meshnoded refuses it)",
                                 fix: "restore the identity file from a backup, or move it away to make a new node identity")
        case .present(let status) where status.mode & 0o077 != 0:
            return DoctorFinding(.identity, .fail, "\(path) has mode \(status.octalMode), open to group or others (meshnoded refuses it)",
                                 fix: "chmod 600 \(path)")
        case .present(let status) where status.owner != setup.serviceUser:
            return DoctorFinding(.identity, .fail, "\(path) belongs to \(status.owner); \(setup.serviceUser) cannot read it",
                                 fix: "chown \(setup.serviceUser): \(path)")
        case .present(let status):
            return DoctorFinding(.identity, .ok, "\(path) mode \(status.octalMode), owner \(status.owner)")
        }
    }

    static func space(_ fact: SpaceFact, setup: DoctorSetup) -> DoctorFinding {
        switch fact {
        case .unknown(let path, let why):
            return DoctorFinding(.diskSpace, .warn, "free space at \(path) unknown (\(why))")
        case .measured(let path, let available, let total):
            let text = "\(bytes(available)) free of \(bytes(total)) at \(path)"
            if available < setup.failBelowBytes {
                return DoctorFinding(.diskSpace, .fail, text, fix: "free space on that file system (journalctl --vacuum-size=50M, apt clean)")
            }
            if available < setup.warnBelowBytes {
                return DoctorFinding(.diskSpace, .warn, text + ", below \(bytes(setup.warnBelowBytes))",
                                     fix: "free space on that file system (journalctl --vacuum-size=50M, apt clean)")
            }
            return DoctorFinding(.diskSpace, .ok, text)
        }
    }

    /// Bytes as `512 B`, `12.3 MiB`, `3.1 GiB` (also relayctl's sizes).
    public static func bytes(_ count: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
