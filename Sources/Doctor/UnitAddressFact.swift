/// The running unit's `IPAddressAllow=` and `IPAddressDeny=` (systemd.resource-control(5)).
public enum UnitAddressFact: Equatable, Sendable {
    /// systemd was not asked or did not answer (no systemd, no unit, a daemon started by hand); why.
    case unknown(String)
    /// The unit's rules: a packet's peer address in `allow` passes, else one in `deny` is dropped.
    case rules(allow: [AddressPrefix], deny: [AddressPrefix])

    /// How the rules treat every address of `network`.
    public func verdict(for network: AddressPrefix) -> AddressVerdict? {
        guard case .rules(let allow, let deny) = self else { return nil }
        if allow.contains(where: { $0.contains(network) }) { return .allowed }
        let denying = deny.filter { $0.overlaps(network) }
        if denying.isEmpty { return .allowed }
        let allowedInside = allow.contains { $0.overlaps(network) }
        return denying.contains(where: { $0.contains(network) }) && !allowedInside ? .denied : .partly
    }
}

/// How address rules treat a network.
public enum AddressVerdict: Equatable, Sendable {
    /// Every address passes.
    case allowed
    /// Some addresses are dropped.
    case partly
    /// Every address is dropped.
    case denied
}
