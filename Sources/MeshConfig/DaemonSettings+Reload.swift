extension DaemonSettings {
    /// Whether a reload (SIGHUP) applies the setting `section.key` at once: `[node] log_level`
    /// and the `[relay]` hop limits (`ttl.*`); every other setting waits for a restart.
    public static func appliesOnReload(_ name: String) -> Bool {
        name == "node.log_level" || name.hasPrefix("relay.ttl.")
    }

    /// The settings (`section.key`, in file order) whose value here differs from `running`'s and
    /// that a reload cannot apply.
    public func restartNeeded(comparedTo running: DaemonSettings) -> [String] {
        ConfigSchema.options.filter { option in
            !Self.appliesOnReload(option.name) && option.render(self) != option.render(running)
        }.map(\.name)
    }
}
