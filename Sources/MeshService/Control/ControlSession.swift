import Dispatch
import Synchronization

/// One connected control client (a session); used only on the server's queue.
final class ControlSession {
    /// The server's number for the client.
    let id: UInt64
    /// The connected socket.
    let fd: Int32
    let readSource: PolledSource
    let writeSource: PolledSource
    /// Fires when a started request line is not finished in time.
    let timer: DispatchSourceTimer
    /// Fires when queued output may have stopped moving (`ControlServerConfiguration.stuckTimeout`).
    let stuckTimer: DispatchSourceTimer
    /// Splits input into request lines.
    var lines: LineBuffer
    /// Lines read but not answered yet, from `waitingStart` on: at most one read's worth.
    private var waiting: [LineBuffer.Item] = []
    private var waitingStart = 0
    /// Bytes waiting to be written, from `outputStart` on.
    var output: [UInt8] = []
    var outputStart = 0
    /// True while `writeSource` is resumed.
    var writing = false
    /// True while the partial-line timer is armed.
    var timerArmed = false
    /// True while the stuck timer is armed.
    var stuckTimerArmed = false
    /// When a byte of output was last written.
    var lastWriteProgress = ContinuousClock.now
    /// True once input ended or is no longer read; the read source is then cancelled.
    private(set) var readingStopped = false
    /// True while the read source is suspended (requests waiting, or backed-up output).
    private var readSuspended = false
    /// True while queued output is above the pause threshold: requests are neither read nor answered.
    var backlogged = false
    /// True while a turn is queued on the server's queue.
    var turnScheduled = false
    /// Close as soon as the output is flushed.
    var closeAfterFlush = false
    /// The node's watcher token after a successful `watch`.
    var watchToken: UInt64?

    /// Bytes queued and not yet written.
    var pendingBytes: Int { output.count - outputStart }
    /// True while read lines wait for their answer.
    var hasWaitingLines: Bool { waitingStart < waiting.count }

    init(id: UInt64, fd: Int32, readSource: PolledSource, writeSource: PolledSource,
         timer: DispatchSourceTimer, stuckTimer: DispatchSourceTimer, maxLineBytes: Int) {
        self.id = id
        self.fd = fd
        self.readSource = readSource
        self.writeSource = writeSource
        self.timer = timer
        self.stuckTimer = stuckTimer
        lines = LineBuffer(maxLineBytes: maxLineBytes)
    }

    /// Adds lines just read; they are answered before anything more is read.
    func addWaiting(_ items: [LineBuffer.Item]) {
        if !hasWaitingLines {
            waiting.removeAll(keepingCapacity: true)
            waitingStart = 0
        }
        waiting.append(contentsOf: items)
    }

    /// The oldest line not answered yet.
    func nextWaiting() -> LineBuffer.Item? {
        guard hasWaitingLines else { return nil }
        defer { waitingStart += 1 }
        return waiting[waitingStart]
    }

    /// Lets the read source fire (true) or holds it (false); nothing once reading stopped.
    func setReading(_ active: Bool) {
        guard !readingStopped, active == readSuspended else { return }
        readSuspended = !active
        if active { readSource.resume() } else { readSource.suspend() }
    }

    /// Stops reading for good; the read source is cancelled (and resumed, so its handler runs).
    func stopReading() {
        guard !readingStopped else { return }
        readingStopped = true
        readSource.cancel()
        if readSuspended { readSource.resume() }
        readSuspended = false
        waiting.removeAll()
        waitingStart = 0
    }

    /// Cancels every source; the descriptor closes once the read and write sources are done.
    func cancelSources() {
        stopReading()
        writeSource.cancel()
        if !writing { writeSource.resume() }
        writing = true
        timer.cancel()
        stuckTimer.cancel()
    }
}
