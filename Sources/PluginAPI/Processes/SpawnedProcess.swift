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
        let pid: Int32
        do {
            pid = try ProcessSpawn.spawn(
                executable, arguments: arguments, directory: directory, environment: environment,
                output: .descriptor(outputPipe[1]), errors: .descriptor(errorPipe[1]), newGroup: true
            )
        } catch {
            for descriptor in outputPipe + errorPipe { close(descriptor) }
            throw CannotStart(description: error.reason)
        }
        close(outputPipe[1])
        close(errorPipe[1])
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
