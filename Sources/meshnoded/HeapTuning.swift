import Dispatch
import Glibc
import Synchronization

/// glibc heap settings for a small long-running daemon (docs/PERFORMANCE.md, "Footprint").
///
/// Under a fragment flood the node allocates and frees tens of thousands of small buffers a
/// second on several threads. With glibc's defaults each thread may get its own arena (up to 8
/// per core) and freed chunks stay resident in every one; one arena (threads still keep small
/// chunks in their lock-free tcache), a `malloc_trim` every second, and blocks of 32 KiB or
/// more in mappings of their own give freed pages back.
/// Under the 50-link flood of Benchmarks/scripts/footprint.sh, RSS growth was 8.15 MiB with 2 arenas and
/// a 5 s trim, 7.48 and 8.79 MiB with 2 arenas and a 1 s trim, 7.11 and 6.61 MiB with this
/// setting (one run each); with large blocks in their own mappings too (`mmapThreshold`),
/// 6.37 and 6.07 MiB. `mallopt` and `malloc_trim` are glibc's, from
/// `<malloc.h>`, which the Glibc module does not export: they are looked up with `dlsym`, and
/// without them (another libc) nothing changes.
enum HeapTuning {
    /// glibc's `M_ARENA_MAX` (`<malloc.h>`).
    static let mArenaMax: Int32 = -8
    /// The most malloc arenas (glibc's default is 8 per core): one, shared by all threads.
    static let arenas: Int32 = 1
    /// glibc's `M_MMAP_THRESHOLD` (`<malloc.h>`).
    static let mMmapThreshold: Int32 = -3
    /// Blocks of this size or more get their own mapping, returned to the kernel when freed:
    /// the reassembly buffers of large messages no longer leave holes in the heap (glibc's
    /// default starts at 128 KiB and rises with what is freed).
    static let mmapThreshold: Int32 = 32_768
    /// How often free heap pages are returned to the kernel.
    static let trimInterval = DispatchTimeInterval.seconds(1)

    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// Applies the arena cap now and starts the trim timer on a queue of its own. Without
    /// glibc's functions nothing changes.
    static func start() {
        guard let malloptSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt"),
              let trimSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        else { return }
        let mallopt = unsafeBitCast(malloptSymbol, to: Mallopt.self)
        let trim = unsafeBitCast(trimSymbol, to: MallocTrim.self)
        _ = mallopt(mArenaMax, arenas)
        _ = mallopt(mMmapThreshold, mmapThreshold)
        trimTimer.withLock { current in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "meshnoded.heap-trim"))
            timer.schedule(deadline: .now() + trimInterval, repeating: trimInterval)
            timer.setEventHandler { @Sendable in _ = trim(0) }
            timer.resume()
            current = timer
        }
    }

    /// The running trim timer, kept alive for the life of the process.
    private static let trimTimer = Mutex<(any DispatchSourceTimer)?>(nil)
}
