import ControlProtocol
import Doctor
import FoundationEssentials
import Glibc

/// Asks the daemon for `status` on its control socket and reads the reply with Foundation's JSON decoder,
/// keeping the fields the checks need.
enum DoctorDaemonProbe {
    /// How long to wait for the daemon.
    static let timeout = Duration.seconds(2)

    /// The daemon's fact.
    static func fact(socket: String) -> DaemonFact {
        let client: ControlClient
        do {
            client = try ControlClient(socketPath: socket, timeout: timeout)
        } catch {
            guard case .cannotConnect(_, let reason, _) = error else { return .noReply(error.description) }
            let code = reason == String(cString: strerror(EACCES)) ? EACCES : reason == String(cString: strerror(ENOENT)) ? ENOENT : 0
            return .cannotConnect(errno: code, reason: reason)
        }
        defer { client.close() }
        let line: [UInt8]
        do { line = try client.requestLine(ControlRequest(.status)) } catch { return .noReply(error.description) }
        guard let reply = try? JSONDecoder().decode(DoctorStatusLine.self, from: Data(line)) else {
            return .noReply("the status reply is not the control protocol's JSON")
        }
        guard reply.ok, let status = reply.result else { return .noReply("meshnoded refused status: \(reply.error ?? "no reason")") }
        return .answered(status)
    }
}

/// A `status` reply line: only what the doctor reads (internal for tests).
struct DoctorStatusLine: Decodable {
    var ok: Bool
    var result: DaemonStatus?
    var error: String?

    enum CodingKeys: String, CodingKey { case ok, result, error }
    enum ErrorKeys: String, CodingKey { case message }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ok = try container.decode(Bool.self, forKey: .ok)
        result = try container.decodeIfPresent(StatusFields.self, forKey: .result)?.status
        error = try? container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error).decode(String.self, forKey: .message)
    }
}

/// The status result: state, transport state, version and the mesh clock.
private struct StatusFields: Decodable {
    var status: DaemonStatus

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let text = { (name: String) in try? container.decode(String.self, forKey: AnyKey(name)) }
        let clock = try? container.decodeIfPresent(ClockReport.self, forKey: AnyKey("clock"))
        var runs: DaemonRuns?
        if let transport = text("transport"), let directory = text("stateDirectory"), let user = text("user"),
           let pid = try? container.decode(Int.self, forKey: AnyKey("pid")) {
            runs = DaemonRuns(transport: transport, stateDirectory: directory, user: user, pid: pid,
                              systemd: (try? container.decode(Bool.self, forKey: AnyKey("systemd"))) ?? false,
                              configFile: text("configFile"))
        }
        status = DaemonStatus(state: text("state") ?? "(no state)", transportState: text("transportState"),
                              version: text("version") ?? "(no version)",
                              meshClock: clock.map { MeshClockFact(synchronised: $0.synchronised,
                                                                    offsetMilliseconds: $0.offsetMilliseconds, votes: $0.votes) },
                              runs: runs)
    }
}

/// Any JSON object key.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
