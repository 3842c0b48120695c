import CSystemCalls
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A program started in a process group of its own, with its standard output and error on pipes and its
/// input from `/dev/null`: stopping it signals the whole group, so a shell script's `sleep` or a pipeline
/// it started is stopped with it and cannot keep the output pipe open.
///
/// The group is recorded in `ledger` while it lives, so that if the scheduler is killed meanwhile, the next pass stops
/// it. The caller owns ``output`` and ``errors`` (a ``PipeReader`` closes what it reads) and must call ``endGroup()``.
public final class SpawnedProcess: Sendable {
    /// How the program ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// The program could not be started.
    public struct CannotStart: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: Int32
    /// The read end of the program's standard output.
    public let output: Int32
    /// The read end of the program's standard error.
    public let errors: Int32
    private let ledger: ProcessLedger
    /// Whether the program has ended and is being (or has been) reaped: its group is signalled no more.
    private let reaped = Mutex(false)

    /// Starts `executable` (an absolute path) with `arguments` in `directory`, with exactly `environment`, as `user`
    /// (this process's own when `nil`), and records its group in `ledger` until ``endGroup()`` has reaped it.
    public init(
        executable: String, arguments: [String], directory: String, environment: [String: String], user: SystemUser? = nil,
        ledger: ProcessLedger
    ) throws(CannotStart) {
        if let problem = user?.problemStartingAs { throw CannotStart(description: problem) }
        let (executable, arguments) = user?.wrapping(executable: executable, arguments: arguments) ?? (executable, arguments)
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        // Close-on-exec from the start, so no other program started meanwhile inherits them and holds the
        // pipes open; `dup2` in the child clears the flag on its standard output and error only.
        guard csystem_pipe2(&outputPipe, O_CLOEXEC) == 0, csystem_pipe2(&errorPipe, O_CLOEXEC) == 0 else {
            throw CannotStart(description: "cannot create pipes: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        csystem_spawn_add_chdir(&actions, directory)
        // Nothing else this process has open reaches the program: not a socket, not a database file, not the
        // pipe a parent uses to notice this process's exit.
        csystem_spawn_add_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own; the default signal dispositions and an empty mask, whatever the service traps.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        var status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // ETXTBSY: a program started by another thread at the same moment still holds the file open for writing
        // (Linux's fork/exec race), or the file is being replaced. Both pass within milliseconds.
        for attempt in 0..<6 where status == ETXTBSY {
            usleep(UInt32(5_000 << attempt))
            status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        close(outputPipe[1])
        close(errorPipe[1])
        guard status == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw CannotStart(description: String(cString: strerror(status)))
        }
        self.pid = pid
        output = outputPipe[0]
        errors = errorPipe[0]
        self.ledger = ledger
        ledger.started(pid)
    }

    /// Sends `signal` to the program and everything in its process group, unless it has been reaped (its pid, and so
    /// its group's, may then belong to another process).
    public func signalGroup(_ signal: Int32) {
        reaped.withLock { reaped in if !reaped { _ = kill(-pid, signal) } }
    }

    /// How long a program stopped with `SIGTERM` (``stop()``) has to end before its group is killed.
    public static let stopGrace: Duration = .seconds(3)

    /// Stops the program's process group: `SIGTERM`, then `SIGKILL` to whatever is left after ``stopGrace``. Returns
    /// at once; the kill, if needed, comes from a thread of its own and never reaches a group already reaped.
    public func stop() {
        signalGroup(SIGTERM)
        Thread.detachNewThread {
            let deadline = ContinuousClock.now + Self.stopGrace
            while ContinuousClock.now < deadline, !self.reaped.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.05) }
            self.signalGroup(SIGKILL)
        }
    }

    /// Waits, without holding a Swift concurrency thread, until the program has ended; then stops whatever it
    /// left running in its process group (a background child holding its pipes) and reaps it. Says how it ended.
    ///
    /// The group is signalled after the program has exited but before it is reaped, while its pid cannot have been
    /// given to another process. The wait blocks a thread of its own, not one of Dispatch's global pool: that pool
    /// has about as many threads as cores, and waits for programs that run long would starve every other wait.
    public func endGroup() async -> Termination {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var info = siginfo_t()
                while waitid(P_PID, id_t(self.pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
                // Killed and marked reaped in one step: no signal may be sent to the group once its pid can be reused.
                self.reaped.withLock { reaped in
                    kill(-self.pid, SIGKILL)
                    reaped = true
                }
                continuation.resume(returning: self.waitForExit())
            }
        }
    }

    /// Waits until the program has ended, and says how (blocking the calling thread).
    private func waitForExit() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        ledger.ended(pid)
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
