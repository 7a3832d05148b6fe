/// The error `body` throws when it is an `E`; nil when it throws nothing or another error.
///
/// What `#expect(throws: E.self)` returns from Swift 6.1 on (Swift 6.0's returns nothing), for
/// tests that go on to check the error's fields: each such check is an `#expect` that fails on nil.
public func thrownError<E: Error, R>(_ type: E.Type, by body: () throws -> R) -> E? {
    do {
        _ = try body()
    } catch {
        return error as? E
    }
    return nil
}
