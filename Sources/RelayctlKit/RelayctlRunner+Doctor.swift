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
        let (judged, facts) = DoctorGatherer.gather(for: setup)
        let report = Doctor.diagnose(facts, setup: judged)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(report) else {
                err("relayctl: the report could not be encoded as JSON\n")
                return .doctorFail
            }
            out(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            out(formatter.colour ? paintedLabels(report.text) : report.text)
        }
        return switch report.worst {
        case .ok, .skip: .ok
        case .warn: .doctorWarn
        case .fail: .doctorFail
        }
    }

    /// Doctor's text with each line's leading label (`OK`, `WARN`, `FAIL`) coloured.
    func paintedLabels(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            for label in ["OK", "WARN", "FAIL"] where line.hasPrefix(label + " ") {
                return formatter.painted(label, label) + line.dropFirst(label.count)
            }
            return String(line)
        }.joined(separator: "\n")
    }
}
