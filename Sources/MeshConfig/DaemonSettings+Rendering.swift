extension DaemonSettings {
    /// The configuration as meshnoded.conf text, every key present; parsing it gives this value back.
    public func rendered() -> String {
        var lines: [String] = []
        for section in ConfigSchema.sections {
            if !lines.isEmpty { lines.append("") }
            lines.append("[\(section)]")
            for option in ConfigSchema.options where option.section == section {
                let value = option.render(self)
                lines.append(value.isEmpty ? "\(option.key) =" : "\(option.key) = \(value)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
