// Swift 6.0's standard library declares Array.withUnsafeBufferPointer and
// withUnsafeMutableBufferPointer `rethrows`, so a closure's typed error comes back as `any Error`
// there (6.1 made them generic over the error type). These keep the closure's error type on both
// compilers, so the crypto code builds with Debian 13's Swift 6.0.3 as well as with newer toolchains.
extension Array where Element == UInt8 {
    /// `withUnsafeBufferPointer`, throwing the closure's own error type on every Swift 6 compiler.
    @inline(__always)
    func withBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = withUnsafeBufferPointer { (buffer) in
            do throws(Failure) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let result): return result
        case .failure(let error): throw error
        }
    }

    /// `withUnsafeMutableBufferPointer`, throwing the closure's own error type on every Swift 6 compiler.
    @inline(__always)
    mutating func withMutableBufferPointer<Result, Failure: Error>(
        _ body: (inout UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = withUnsafeMutableBufferPointer { (buffer) in
            do throws(Failure) { return .success(try body(&buffer)) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let result): return result
        case .failure(let error): throw error
        }
    }
}

extension Array where Element == UInt8 {
    /// `init(unsafeUninitializedCapacity:initializingWith:)`, throwing the closure's own error type on
    /// every Swift 6 compiler; on a throw no element counts as initialized.
    @inline(__always)
    init<Failure: Error>(
        uninitializedCapacity capacity: Int,
        initializingWith body: (inout UnsafeMutableBufferPointer<UInt8>, inout Int) throws(Failure) -> Void
    ) throws(Failure) {
        var failure: Failure?
        self.init(unsafeUninitializedCapacity: capacity) { (buffer, initialized) in
            do throws(Failure) { try body(&buffer, &initialized) } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
    }
}

/// `withUnsafeTemporaryAllocation(of: UInt8.self, capacity:)`, throwing the closure's own error type on
/// every Swift 6 compiler.
@inline(__always)
func withTemporaryBytes<Result, Failure: Error>(
    capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Result
) throws(Failure) -> Result {
    let outcome: Swift.Result<Result, Failure> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { (bytes) in
        do throws(Failure) { return .success(try body(bytes)) } catch { return .failure(error) }
    }
    switch outcome {
    case .success(let result): return result
    case .failure(let error): throw error
    }
}
