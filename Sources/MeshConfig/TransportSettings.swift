/// `[transport]` settings.
public struct TransportSettings: Equatable, Sendable {
    /// The transports the node runs at once, each behind a port of its own in this order (the
    /// first on port 0); never empty, never one kind twice.
    public var kinds: [TransportKind] = [.bluez]
    /// The transports' names comma-separated in port order (`bluez` or `bluez,udp`), as `status`,
    /// logs and `--print-config` give them.
    public var name: String { kinds.map(\.rawValue).joined(separator: ",") }
    /// Creates the defaults.
    public init() {}

    /// Parses `kind`: one or more transport names, comma-separated, each at most once.
    static func kinds(_ text: String) throws(InvalidValue) -> [TransportKind] {
        let all = TransportKind.allCases.map(\.rawValue).joined(separator: ", ")
        var kinds: [TransportKind] = []
        for item in ConfigValue.list(text) {
            guard let kind = TransportKind(rawValue: item) else {
                throw InvalidValue(expected: "transports among \(all), comma-separated ('\(item)' is none of them)")
            }
            guard !kinds.contains(kind) else {
                throw InvalidValue(expected: "each transport at most once ('\(item)' is listed twice)")
            }
            kinds.append(kind)
        }
        guard !kinds.isEmpty else { throw InvalidValue(expected: "one or more of \(all), comma-separated") }
        return kinds
    }
}
