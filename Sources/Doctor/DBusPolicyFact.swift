/// What was found of the D-Bus policy file the package installs.
public enum DBusPolicyFact: Equatable, Sendable {
    /// None of the searched paths has it.
    case missing(searched: [String])
    /// It could not be read.
    case unreadable(path: String, reason: String)
    /// Found; whether its text has a `<policy user="USER">` for the service user.
    case present(path: String, namesServiceUser: Bool)
}
