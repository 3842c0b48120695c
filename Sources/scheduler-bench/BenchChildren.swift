import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The programs the bench started and has not reaped yet, stopped with it. When the bench is stopped (SIGINT,
/// SIGTERM, SIGHUP), each gets SIGTERM, then SIGKILL if it is still running 30 s later, and the bench exits with
/// 128 + the signal's number; when a measure fails, the same before the bench says why and exits with 1. Without
/// this, a `scheduler run` outlived a stopped bench and kept its database's service lock, so the next bench on that
/// database refused to start.
///
/// The programs that run for long (services, `wrk`) run in a process group of their own: a terminal's Ctrl-C reaches
/// the bench, which stops them, and not them first. Each is reaped only under the lock that lists it: a stop never
/// signals a pid already reaped (then perhaps another process's).
enum BenchChildren {
    private static let running = Mutex<Set<Int32>>([])
    /// Set when a stop begins: no program starts after it.
    private static let stopping = Atomic<Bool>(false)
    /// The signals' sources, kept for as long as the bench runs.
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    /// The pid `start` returns, once it has started a program: counted among the bench's programs until
    /// ``wait(for:)`` or ``hasEnded(_:)`` reaps it. Once a stop has begun, starts nothing and waits for the stop to
    /// end the bench.
    static func started<Failure: Error>(_ start: () throws(Failure) -> Int32) throws(Failure) -> Int32 {
        let pid = try running.withLock { running throws(Failure) -> Int32? in
            guard !stopping.load(ordering: .sequentiallyConsistent) else { return nil }
            let pid = try start()
            running.insert(pid)
            return pid
        }
        guard let pid else { waitForTheStop() }
        return pid
    }

    /// Waits for program `pid` to end, and reaps it: its wait status and its resource use.
    @discardableResult
    static func wait(for pid: Int32) -> (status: Int32, usage: rusage) {
        var info = siginfo_t()
        // Waits without reaping; reaped below, under the lock.
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        return reap(pid) ?? (0, rusage())
    }

    /// Whether program `pid` has ended, reaped if so; without waiting.
    static func hasEnded(_ pid: Int32) -> Bool {
        reap(pid) != nil
    }

    /// Reaps `pid` if it has ended (or was reaped already), removing it from the list: its wait status and resource
    /// use, `nil` while it runs. Once a stop has begun, waits for it to end the bench instead: the stop reaps, and
    /// what the measure would learn of a program then is the stop's doing.
    private static func reap(_ pid: Int32) -> (status: Int32, usage: rusage)? {
        if stopping.load(ordering: .sequentiallyConsistent) { waitForTheStop() }
        return reapNow(pid)
    }

    private static func reapNow(_ pid: Int32) -> (status: Int32, usage: rusage)? {
        running.withLock { running in
            var status: Int32 = 0
            var usage = rusage()
            var result: Int32
            repeat { result = wait4(pid, &status, WNOHANG, &usage) } while result < 0 && errno == EINTR
            guard result != 0 else { return nil }
            running.remove(pid)
            return (status, usage)
        }
    }

    /// Installs the stop: from now on, SIGINT, SIGTERM and SIGHUP stop the bench's programs, then the bench.
    static func stopWithTheBench() {
        sources.withLock { sources in
            for number in [SIGINT, SIGTERM, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let stopped = stopAll()
                    FileHandle.standardError.write(Data("scheduler-bench: stopped by signal \(number); stopped \(stopped) program(s) it ran\n".utf8))
                    exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Says `message` and exits with `status` once every program the bench started is stopped (``stopAll()``); when a
    /// signal's stop is under way, waits for it to end the bench instead, without a word (the measure may have failed
    /// because the stop ended its service).
    static func exitAfterStopping(_ status: Int32, saying message: String? = nil) -> Never {
        if stopping.load(ordering: .sequentiallyConsistent) { waitForTheStop() }
        if let message { FileHandle.standardError.write(Data("scheduler-bench: \(message)\n".utf8)) }
        _ = stopAll()
        exit(status)
    }

    /// Waits, forever, for a signal's stop to end the bench.
    private static func waitForTheStop() -> Never {
        while true { pause() }
    }

    /// Sends SIGTERM to every program running, SIGKILL to those left after 30 s, and reaps each; how many there were.
    /// Only one stop runs.
    private static func stopAll() -> Int {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { waitForTheStop() }
        let pids = running.withLock { running in
            for pid in running { kill(pid, SIGTERM) }
            return running
        }
        let deadline = ContinuousClock.now + .seconds(30)
        var left = pids
        while !left.isEmpty {
            left = left.filter { reapNow($0) == nil }
            if ContinuousClock.now > deadline { running.withLock { running in left.filter(running.contains).forEach { kill($0, SIGKILL) } } }
            usleep(20_000)
        }
        return pids.count
    }
}
