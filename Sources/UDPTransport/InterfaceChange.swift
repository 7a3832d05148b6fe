/// What a running LAN transport does when its interface's addresses are read again (every
/// ``interval``): a DHCP lease that arrives after start, a renewed or changed address, IPv6
/// switched on or off. A pure value: the caller reads the kernel.
public enum InterfaceChange: Equatable, Sendable {
    /// Nothing to do: the same addresses, or none readable now (the links time out by themselves
    /// if the interface is gone, and it is read again next time).
    case keep
    /// The addresses changed on the same interface: the transport takes these (which sources it
    /// reads, which addresses are its own, which family it announces on) on its sockets as they are.
    case follow(InterfaceAddress)
    /// The interface was replaced (another index, as when a USB adapter is plugged in again):
    /// sockets bound to the old one hear nothing, so the transport is made anew.
    case restart

    /// How often the addresses are read again.
    public static let interval = Duration.seconds(5)

    /// Decides from the addresses the transport runs with and those read now (nil: unreadable).
    public static func decide(running: InterfaceAddress, now: InterfaceAddress?) -> InterfaceChange {
        guard let now, now != running else { return .keep }
        return now.index != running.index ? .restart : .follow(now)
    }
}
