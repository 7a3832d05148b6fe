import ControlProtocol
import Glibc
import MeshLink

/// Builds a `DaemonSettings` from defaults, then the file, then command-line overrides.
public enum ConfigLoader {
    /// Where meshnoded looks for its configuration unless `--config` says otherwise.
    public static let defaultPath = "/etc/meshnoded/meshnoded.conf"

    /// Loads the file at `path` (a missing file is fine only when `mayBeMissing`), then the overrides.
    public static func load(path: String, mayBeMissing: Bool, overrides: [ConfigOverride]) throws(ConfigError) -> DaemonSettings {
        var config = DaemonSettings()
        let bytes = try readFile(path, mayBeMissing: mayBeMissing)
        if let bytes {
            try apply(ConfigFileParser.parse(bytes, file: path), file: path, to: &config)
        }
        try apply(overrides, to: &config)
        try validate(config, file: sources(file: bytes == nil ? nil : path, overrides: overrides))
        return config
    }

    /// Where the settings came from, the location of an error no single line owns: the file that
    /// was read and the flags given (`/etc/meshnoded/meshnoded.conf and --seen.expiry`); never a
    /// file that does not exist.
    static func sources(file: String?, overrides: [ConfigOverride]) -> String {
        var flags: [String] = []
        for flag in overrides.map(\.flag) where !flags.contains(flag) { flags.append(flag) }
        let parts = (file.map { [$0] } ?? []) + (flags.isEmpty ? [] : [flags.joined(separator: ", ")])
        return parts.isEmpty ? "defaults" : parts.joined(separator: " and ")
    }

    /// Parses file text on top of the defaults and validates the result.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> DaemonSettings {
        var config = DaemonSettings()
        try apply(ConfigFileParser.parse(Array(text.utf8), file: file), file: file, to: &config)
        try validate(config, file: file)
        return config
    }

    /// Applies file statements in order; the first bad line stops with its line number.
    public static func apply(_ statements: [ConfigStatement], file: String, to config: inout DaemonSettings) throws(ConfigError) {
        var section: String?
        var firstLines: [String: Int] = [:]
        for statement in statements {
            let fail = { (problem: ConfigProblem) in ConfigError(file: file, line: statement.line, problem: problem) }
            switch statement.content {
            case .invalid(let problem):
                throw fail(problem)
            case .section(let name):
                guard ConfigSchema.sections.contains(name) else { throw fail(.unknownSection(name)) }
                section = name
            case .setting(let key, let value):
                guard let section else { throw fail(.keyOutsideSection(key)) }
                guard let option = ConfigSchema.option(section: section, key: key) else {
                    throw fail(.unknownKey(key: key, section: section))
                }
                if let first = firstLines[option.name] {
                    throw fail(.duplicateKey(key: key, section: section, firstLine: first))
                }
                firstLines[option.name] = statement.line
                do throws(InvalidValue) {
                    try option.apply(&config, value)
                } catch {
                    throw fail(.invalidValue(key: key, section: section, value: value, expected: error.expected))
                }
            }
        }
    }

    /// Applies command-line overrides in order; a later flag wins over an earlier one.
    public static func apply(_ overrides: [ConfigOverride], to config: inout DaemonSettings) throws(ConfigError) {
        for override in overrides {
            guard let option = ConfigSchema.option(section: override.section, key: override.key) else {
                throw ConfigError(file: override.flag, line: nil, problem: .badFlag("unknown option"))
            }
            do throws(InvalidValue) {
                try option.apply(&config, override.value)
            } catch {
                throw ConfigError(file: override.flag, line: nil, problem: .invalidValue(
                    key: override.key, section: override.section, value: override.value, expected: error.expected))
            }
        }
    }

    /// Checks rules that span several keys.
    public static func validate(_ config: DaemonSettings, file: String) throws(ConfigError) {
        let fail = { (detail: String) in ConfigError(file: file, line: nil, problem: .inconsistent(detail)) }
        guard config.node.controlSocket.utf8.count <= UnixSocketAddress.maxPathBytes else {
            throw fail("control socket path '\(config.node.controlSocket)' is longer than \(UnixSocketAddress.maxPathBytes) bytes")
        }
        let running = config.transport.kinds.compactMap(\.udpSection)
        var binds: [UDPSection: UDPEndpoint] = [:]
        for section in UDPSection.allCases {
            let settings = config[section]
            let neighbours = section == .udp ? "neighbours" : "peers"
            if settings.interface.isEmpty, let outside = settings.neighbours.first(where: { !$0.isLoopback }) {
                throw fail("[\(section)] \(neighbours.dropLast()) \(outside) is not loopback; set [\(section)] interface to reach a LAN")
            }
            if !settings.interface.isEmpty {
                if let other = settings.neighbours.first(where: { $0.family != .ipv4 && !$0.ipv6.isLinkLocal }) {
                    throw fail("[\(section)] \(neighbours.dropLast()) \(other) is neither IPv4 nor IPv6 link-local, as [\(section)] interface needs")
                }
            } else if let bind = try? UDPEndpoint(host: settings.bind, port: settings.port) {
                if let other = settings.neighbours.first(where: { $0.family != bind.family }) {
                    throw fail("[\(section)] \(neighbours.dropLast()) \(other) is not in the address family of bind = \(bind.host)")
                }
                if settings.neighbours.contains(bind) {
                    throw fail("[\(section)] \(neighbours) lists this node's own address \(bind)")
                }
                if running.contains(section) { binds[section] = bind }
            }
            guard settings.linkTimeout > settings.keepaliveInterval else {
                throw fail("[\(section)] link_timeout must be longer than keepalive_interval")
            }
        }
        if let udp = binds[.udp], let lan = binds[.lan] {
            guard udp != lan else {
                throw fail("transport = \(config.transport.name): [udp] and [lan] both bind \(udp); give them different ports")
            }
            if let own = config.udp.neighbours.first(where: { $0 == lan }) ?? config.lan.neighbours.first(where: { $0 == udp }) {
                throw fail("transport = \(config.transport.name): one section dials the other's own address \(own)")
            }
        }
        guard config.timers.departureGrace > config.timers.heartbeatInterval else {
            throw fail("[timers] departure_grace must be longer than heartbeat_interval")
        }
        guard !config.seen.checkTimestamps || config.seen.maxClockSkew * 2 <= config.seen.expiry else {
            throw fail("[seen] max_clock_skew must be at most half of expiry (messages older than expiry - max_clock_skew are refused)")
        }
    }

    /// Reads at most `ConfigFileParser.maxFileBytes + 1` bytes of a regular file.
    ///
    /// Opens without blocking (a FIFO with no writer, a device) and refuses anything but a
    /// regular file before reading. Returns nil when the file does not exist and `mayBeMissing` is true.
    public static func readFile(_ path: String, mayBeMissing: Bool) throws(ConfigError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            if code == ENOENT, mayBeMissing { return nil }
            throw ConfigError(file: path, line: nil, problem: .unreadable(String(cString: strerror(code))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw ConfigError(file: path, line: nil, problem: .unreadable(String(cString: strerror(errno))))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ConfigError(file: path, line: nil, problem: .notRegularFile(fileKind(info.st_mode)))
        }
        guard info.st_size <= ConfigFileParser.maxFileBytes else {
            throw ConfigError(file: path, line: nil, problem: .fileTooLarge(limit: ConfigFileParser.maxFileBytes))
        }
        let limit = ConfigFileParser.maxFileBytes + 1
        var bytes = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, limit - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw ConfigError(file: path, line: nil, problem: .unreadable(String(cString: strerror(errno))))
            }
            if count == 0 { break }
            filled += count
        }
        return Array(bytes[..<filled])
    }

    /// What a non-regular file is, for the error: "a FIFO", "a directory", ….
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }
}
