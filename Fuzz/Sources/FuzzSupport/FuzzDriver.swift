import CFuzzerDriver

/// libFuzzer's `TestOneInput` callback type.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer's driver with the process arguments; returns its exit status.
///
/// SwiftPM links each executable with `main` set to `<module>_main`, so libFuzzer's own `main` is
/// never pulled in; each target's `<module>_main` calls this instead.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ test: FuzzTestOneInput
) -> CInt {
    var count = argc
    var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &vector, test)
}
