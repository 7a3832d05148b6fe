import MeshProtocol

/// A value that does not fit its key; `expected` describes what would.
struct InvalidValue: Error, Equatable {
    /// What the key takes, for example "an integer in 1...65535".
    let expected: String
}
