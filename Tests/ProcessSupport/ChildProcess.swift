import CSystemCalls
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program the tests start, through `posix_spawn`, with the part of `Foundation.Process`'s interface they use.
///
/// Not `Foundation.Process`: on Linux its `run()` copies 256 bytes of every `/proc/self/fd` entry and crashes the
/// test process now and then when an entry ends a page (swift-corelibs-foundation#5472, fixed after Swift 6.3.1).
/// Serializing launches does not help; not scanning does. The child closes every descriptor above its standard
/// three, as the service's own `SpawnedProcess` does.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream {
        /// A pipe whose other end the caller holds.
        case pipe(Pipe)
        /// `/dev/null`.
        case null
        /// This process's own.
        case inherited
    }

    /// The program could not be started.
    public struct CannotStart: Error, CustomStringConvertible {
        public let description: String
    }

    public let processIdentifier: Int32
    private let lock = NSLock()
    /// The raw wait status, once the child has been reaped; its pid may belong to another process from then on.
    private var reapedStatus: Int32?

    /// Starts `executable` with `arguments`, in `directory` (this process's when `nil`), with `environment` (this
    /// process's when `nil`). The child's ends of the streams' pipes are closed here once it has them.
    public init(
        _ executable: URL, arguments: [String], directory: URL? = nil, environment: [String: String]? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams = [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)]
        for (stream, descriptor) in streams {
            switch stream {
            case .pipe(let pipe):
                let end = descriptor == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, descriptor)
            case .null:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .inherited:
                break
            }
        }
        if let directory { csystem_spawn_add_chdir(&actions, directory.path) }
        csystem_spawn_add_close_from(&actions, 3)

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        var status = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        // ETXTBSY: another thread's child still holds the file open for writing (Linux's fork/exec race).
        for attempt in 0..<6 where status == ETXTBSY {
            usleep(UInt32(5_000 << attempt))
            status = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        }
        for (stream, descriptor) in streams {
            guard case .pipe(let pipe) = stream else { continue }
            try (descriptor == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
        guard status == 0 else {
            throw CannotStart(description: "cannot start \(executable.path): \(String(cString: strerror(status)))")
        }
        processIdentifier = pid
    }

    deinit {
        // Reap a child that has ended, so a long test run leaves no zombies; one still running is left running.
        _ = reapIfEnded()
    }

    /// Whether the child has not ended yet (a stopped child is running).
    public var isRunning: Bool { reapIfEnded() == nil }

    /// Sends SIGTERM, unless the child has already been reaped.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT, unless the child has already been reaped.
    public func interrupt() { send(SIGINT) }

    /// Sends `signal`, unless the child has already been reaped (its pid may then be another process's).
    public func send(_ signal: Int32) {
        lock.withLock {
            if reapedStatus == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Blocks the calling thread until the child has ended.
    public func waitUntilExit() {
        var info = siginfo_t()
        // Waits without reaping, outside the lock, so `isRunning` and signals stay answerable meanwhile.
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        _ = reapIfEnded()
    }

    /// Waits, on a thread of its own (``onOwnThread(_:)``), until the child has ended; its ``terminationStatus``.
    /// What async tests call: a blocked wait would hold one of the few threads every test runs on.
    public func exited() async -> Int32 {
        await (try? onOwnThread { [self] in
            waitUntilExit()
            return terminationStatus
        }) ?? -1
    }

    /// The exit status, or the number of the signal that ended the child (as `Foundation.Process` says it);
    /// only meaningful after ``waitUntilExit()``.
    public var terminationStatus: Int32 {
        guard let status = lock.withLock({ reapedStatus }) else { return -1 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// Reaps the child if it has ended; its wait status then, `nil` while it runs.
    private func reapIfEnded() -> Int32? {
        lock.withLock {
            if let reapedStatus { return reapedStatus }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(processIdentifier, &status, WNOHANG) } while result == -1 && errno == EINTR
            guard result == processIdentifier else { return nil }
            reapedStatus = status
            return status
        }
    }
}
