import Glibc
import MeshConfig

/// Turns meshnoded's command line into either a configuration to run with or an exit.
public enum DaemonStartup {
    /// Exit code for a bad command line (EX_USAGE).
    public static let usageExitCode = MeshnodedExitCode.usage.rawValue
    /// Exit code for a bad configuration (EX_CONFIG).
    public static let configExitCode = MeshnodedExitCode.config.rawValue

    /// What meshnoded should do next.
    public enum Outcome: Equatable, Sendable {
        /// Print `output` on stdout and `error` on stderr, then exit with `code`.
        case exit(code: Int32, output: String, error: String)
        /// Run with this configuration.
        case run(DaemonSettings, DaemonInvocation)
    }

    /// Parses the arguments (without the program name), loads the configuration and checks the
    /// files its settings name (`ConfigFileCheck`); `environment` gives `CREDENTIALS_DIRECTORY`
    /// (default: the process's).
    public static func prepare(_ arguments: [String], environment: [String: String]? = nil) -> Outcome {
        let environment = environment ?? credentialsEnvironment()
        let invocation: DaemonInvocation
        do {
            invocation = try DaemonCommandLine.parse(arguments)
        } catch {
            return .exit(code: usageExitCode, output: "", error: "meshnoded: \(error)\nTry 'meshnoded --help'.\n")
        }
        switch invocation.action {
        case .help: return .exit(code: 0, output: DaemonCommandLine.helpText, error: "")
        case .version: return .exit(code: 0, output: "meshnoded \(DaemonVersion.current)\n", error: "")
        default: break
        }
        let config: DaemonSettings
        do {
            config = try invocation.loadConfig()
            try ConfigFileCheck.check(config, environment: environment)
        } catch {
            let code = if case .badFlag = error.problem { usageExitCode } else { configExitCode }
            return .exit(code: code, output: "", error: "meshnoded: \(error)\n")
        }
        switch invocation.action {
        case .checkConfig: return .exit(code: 0, output: "configuration OK\n", error: "")
        case .printConfig: return .exit(code: 0, output: config.rendered(), error: "")
        default: return .run(config, invocation)
        }
    }

    /// `CREDENTIALS_DIRECTORY` from the process environment, when systemd set it.
    static func credentialsEnvironment() -> [String: String] {
        guard let directory = getenv("CREDENTIALS_DIRECTORY") else { return [:] }
        return ["CREDENTIALS_DIRECTORY": String(cString: directory)]
    }
}
