/// enginecpu's command line: `[--messages N] [--rate R] [-- MESHNODED-FLAGS...]`.
struct EngineCPUOptions {
    /// Broadcasts M sends.
    var messages = 10_000
    /// Broadcasts a second, in virtual time.
    var rate = 500.0
    /// The meshnoded flags B runs with (budgets, MTU), applied to every engine's configuration.
    var daemonFlags: [String] = []

    /// The usage line.
    static let usage = "usage: enginecpu [--messages N] [--rate R] [-- MESHNODED-FLAGS...]"

    /// Parses the arguments after the program name; nil when they are not understood.
    static func parse(_ arguments: [String]) -> EngineCPUOptions? {
        var options = EngineCPUOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--messages":
                guard let count = rest.popFirst().flatMap({ Int($0) }), count > 0 else { return nil }
                options.messages = count
            case "--rate":
                guard let rate = rest.popFirst().flatMap({ Double($0) }), rate > 0 else { return nil }
                options.rate = rate
            case "--":
                options.daemonFlags = Array(rest)
                rest = []
            default:
                return nil
            }
        }
        return options
    }
}
