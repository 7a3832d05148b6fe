import Dispatch
import Synchronization

/// One connected control client (a session); used only on the server's queue.
final class ControlSession {
    /// The server's number for the client.
    let id: UInt64
    /// The connected socket.
    let fd: Int32
    let readSource: DispatchSourceRead
    let writeSource: DispatchSourceWrite
    let timer: DispatchSourceTimer
    /// Splits input into request lines.
    var lines: LineBuffer
    /// Bytes waiting to be written, from `outputStart` on.
    var output: [UInt8] = []
    var outputStart = 0
    /// True while `writeSource` is resumed.
    var writing = false
    /// True while the partial-line timer is armed.
    var timerArmed = false
    /// True once input ended or is no longer read.
    var readingStopped = false
    /// Close as soon as the output is flushed.
    var closeAfterFlush = false
    /// The node's watcher token after a successful `watch`.
    var watchToken: UInt64?

    /// Bytes queued and not yet written.
    var pendingBytes: Int { output.count - outputStart }

    init(id: UInt64, fd: Int32, readSource: DispatchSourceRead, writeSource: DispatchSourceWrite,
         timer: DispatchSourceTimer, maxLineBytes: Int) {
        self.id = id
        self.fd = fd
        self.readSource = readSource
        self.writeSource = writeSource
        self.timer = timer
        lines = LineBuffer(maxLineBytes: maxLineBytes)
    }

    /// Cancels every source; the descriptor closes once the read and write sources are done.
    func cancelSources() {
        if !readingStopped { readSource.cancel() }
        readingStopped = true
        writeSource.cancel()
        if !writing { writeSource.resume() }
        writing = true
        timer.cancel()
    }
}

/// Closes a descriptor after its last dispatch source is cancelled.
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
