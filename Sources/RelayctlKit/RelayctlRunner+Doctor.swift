import Doctor
import FoundationEssentials
import MeshConfig

extension RelayctlRunner {
    /// `relayctl doctor`: gathers the facts, judges them, prints one line per check (or the report as
    /// JSON) and exits by the worst result: 0 ok, 75 warn, 78 fail (78 also for a bad configuration file).
    func doctor(configPath: String?, socket: String?, json: Bool) -> RelayctlExitCode {
        let setup: DoctorSetup
        do throws(ConfigError) {
            setup = try DoctorGatherer.setup(configPath: configPath, socketOverride: socket)
        } catch {
            err("relayctl: \(error.description)\n")
            return .doctorFail
        }
        let report = Doctor.diagnose(DoctorGatherer.facts(for: setup), setup: setup)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(report) else {
                err("relayctl: the report could not be encoded as JSON\n")
                return .doctorFail
            }
            out(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            out(report.text)
        }
        return switch report.worst {
        case .ok, .skip: .ok
        case .warn: .doctorWarn
        case .fail: .doctorFail
        }
    }
}
