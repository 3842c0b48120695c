public import Foundation
import PluginAPI

#if canImport(Glibc)
import Glibc
#endif

/// A program the tests start, through ``ProcessSpawn`` as the service starts its own, with the part of
/// `Foundation.Process`'s interface they use (not `Foundation.Process`: see ``ProcessSpawn``).
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

    public let processIdentifier: Int32
    private let lock = NSLock()
    /// The raw wait status, once the child has been reaped; its pid may belong to another process from then on.
    private var reapedStatus: Int32?

    /// Starts `executable` with `arguments`, in `directory` (this process's when `nil`), with `environment` (this
    /// process's when `nil`), as ``ProcessSpawn`` starts every program. The child's ends of the streams' pipes are
    /// closed here once it has them.
    public init(
        _ executable: URL, arguments: [String], directory: URL? = nil, environment: [String: String]? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
    ) throws {
        func spawned(_ stream: Stream, reading: Bool) -> ProcessSpawn.Stream {
            switch stream {
            case .pipe(let pipe): .descriptor((reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor)
            case .null: .null
            case .inherited: .inherited
            }
        }
        defer {
            for (stream, reading) in [(standardInput, true), (standardOutput, false), (standardError, false)] {
                if case .pipe(let pipe) = stream { try? (reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close() }
            }
        }
        processIdentifier = try ProcessSpawn.spawn(
            executable.path, arguments: arguments, directory: directory?.path, environment: environment ?? ProcessInfo.processInfo.environment,
            input: spawned(standardInput, reading: true), output: spawned(standardOutput, reading: false), errors: spawned(standardError, reading: false)
        )
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
