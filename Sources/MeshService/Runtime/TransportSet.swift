import MeshLink

/// The transports a node runs at once, seen by the engine as one: each behind a port of its own
/// (``PortedTransport``, port *i* for the *i*-th), so their links never share an ID, and whatever
/// the engine sends on a link goes to the transport of the link's port.
///
/// The engine relays between ports as between any two links (same hop limits, seen cache, routes
/// and budgets per neighbour): nothing in it knows there is more than one transport.
public final class TransportSet: MeshTransport {
    /// One running transport and its name (`udp`, `lan`, `bluez`, `sim`).
    public struct Member: Sendable {
        /// The name `status`, `peers` and `stats` give the transport.
        public let name: String
        /// The transport behind its port.
        public let ported: PortedTransport
    }

    /// The transports in port order: `members[i]` runs on `PortID(i)`.
    public let members: [Member]

    /// Puts each transport behind the port of its place in `transports` (at most 256).
    public init(_ transports: [(name: String, transport: any MeshTransport)]) {
        precondition(transports.count <= Int(UInt8.max) + 1, "a node has at most 256 transport ports")
        members = transports.enumerated().map { index, entry in
            Member(name: entry.name, ported: PortedTransport(entry.transport, port: PortID(UInt8(index))))
        }
    }

    /// The names comma-separated in port order (`bluez,udp`), as `status` gives them.
    public var name: String { members.map(\.name).joined(separator: ",") }

    /// The name of the transport a link belongs to; nil for a port this set does not have.
    public func name(of link: LinkID) -> String? { member(link.port)?.name }

    /// Starts every transport in port order; when one fails, those started are stopped again and
    /// the error says which transport failed.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        for (index, member) in members.enumerated() {
            do {
                try member.ported.start(handler: handler)
            } catch {
                for started in members[..<index] { started.ported.stop() }
                throw TransportSetError.startFailed(transport: member.name, reason: "\(error)")
            }
        }
    }

    /// Sends on the link's transport; a link of a port this set does not have is `.gone`.
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        member(link.port)?.ported.send(frame, on: link) ?? .gone
    }

    /// Closes a link on its transport.
    public func disconnect(_ link: LinkID) { member(link.port)?.ported.disconnect(link) }

    /// Stops every transport.
    public func stop() {
        for member in members { member.ported.stop() }
    }

    /// Passes a keyed link on to its transport.
    public func linkKeyed(_ link: LinkID) { member(link.port)?.ported.linkKeyed(link) }

    /// Every transport's counters summed by name, and the summaries of those that have one,
    /// joined by `; ` (only BlueZ has one).
    public var status: TransportStatus {
        var counters: [String: UInt64] = [:]
        var summaries: [String] = []
        for member in members {
            let status = member.ported.status
            counters.merge(status.counters) { $0 &+ $1 }
            if let summary = status.summary { summaries.append(summary) }
        }
        return TransportStatus(counters: counters, summary: summaries.isEmpty ? nil : summaries.joined(separator: "; "))
    }

    /// Each transport's own status, by name, in port order.
    public var statusByTransport: [(name: String, status: TransportStatus)] {
        members.map { ($0.name, $0.ported.status) }
    }

    private func member(_ port: PortID) -> Member? {
        let index = Int(port.index)
        return index < members.count ? members[index] : nil
    }
}

/// Why a ``TransportSet`` did not start.
public enum TransportSetError: Error, Equatable, CustomStringConvertible {
    /// The named transport failed to start; the ones started before it were stopped again.
    case startFailed(transport: String, reason: String)

    /// One sentence naming the transport.
    public var description: String {
        switch self {
        case .startFailed(let transport, let reason): "the \(transport) transport did not start: \(reason)"
        }
    }
}
