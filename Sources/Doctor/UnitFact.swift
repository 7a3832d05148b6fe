/// What systemd said about meshnoded's unit.
public enum UnitFact: Equatable, Sendable {
    /// systemd is not on the system bus (a container, or a system without it).
    case noSystemd
    /// systemd could not be asked, or did not answer in time; the reason.
    case noReply(String)
    /// systemd does not know the unit (`LoadState` not-found).
    case notInstalled
    /// The unit's states.
    case loaded(UnitState)
}

/// A loaded unit's `ActiveState`, `SubState` and `UnitFileState`.
public struct UnitState: Equatable, Sendable {
    /// `active`, `inactive`, `failed`, `activating`, `deactivating`, `reloading`.
    public var active: String
    /// `running`, `dead`, `auto-restart`, ...
    public var sub: String
    /// `enabled`, `disabled`, `static`, ... (empty when systemd has none).
    public var fileState: String

    /// Creates the state.
    public init(active: String, sub: String, fileState: String) {
        self.active = active
        self.sub = sub
        self.fileState = fileState
    }
}
