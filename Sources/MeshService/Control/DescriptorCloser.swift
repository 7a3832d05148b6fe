import Dispatch
import Synchronization

/// Closes a descriptor after its last source (read and write) is cancelled.
final class DescriptorCloser: Sendable {
    private let remaining: Atomic<Int>
    private let fd: Int32

    init(fd: Int32, sources: Int) {
        self.fd = fd
        remaining = Atomic(sources)
    }

    /// One source finished; closes the descriptor after the last.
    func sourceCancelled(_ close: (Int32) -> Int32) {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { _ = close(fd) }
    }
}
