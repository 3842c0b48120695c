import CSystemCalls
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starts a program with `posix_spawn`: the one place the service, its benchmark and its tests start programs, so
/// that each gets the same guarantees. Nothing this process has open above the standard three reaches the program
/// (not a socket, not a database file, not a pipe another child holds); its signal mask is empty and its dispositions
/// the defaults, whatever this process blocks or traps; a program file another thread is still writing (Linux's
/// fork/exec `ETXTBSY` race) is tried again for up to about 300 ms.
///
/// Not `Foundation.Process`: on Linux its `run()` copies 256 bytes of every `/proc/self/fd` entry and crashes the
/// process now and then when an entry ends a page (swift-corelibs-foundation#5472, fixed after Swift 6.3.1).
public enum ProcessSpawn {
    /// Where one of the program's standard streams comes from or goes.
    public enum Stream: Sendable {
        /// This process's descriptor, duplicated onto the stream (a pipe's end).
        case descriptor(Int32)
        /// `/dev/null`.
        case null
        /// A file opened for reading (standard input only).
        case file(String)
        /// This process's own.
        case inherited
    }

    /// The program could not be started.
    public struct CannotStart: Error, CustomStringConvertible {
        public let executable: String
        /// Why: the system's message (`No such file or directory`).
        public let reason: String
        public var description: String { "cannot start \(executable): \(reason)" }
    }

    /// Starts `executable` with `arguments` (`executable` is looked up in `PATH` when `searchingPath`), in `directory`
    /// (this process's when `nil`), with exactly `environment`; in a process group of its own when `newGroup`.
    /// Returns its pid; the caller reaps it.
    public static func spawn(
        _ executable: String, arguments: [String], directory: String? = nil, environment: [String: String],
        input: Stream = .null, output: Stream = .null, errors: Stream = .null, newGroup: Bool = false, searchingPath: Bool = false
    ) throws(CannotStart) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, descriptor) in [(input, Int32(0)), (output, 1), (errors, 2)] {
            switch stream {
            case .descriptor(let own): posix_spawn_file_actions_adddup2(&actions, own, descriptor)
            case .null: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, descriptor, path, O_RDONLY, 0)
            case .inherited: break
            }
        }
        if let directory { csystem_spawn_add_chdir(&actions, directory) }
        csystem_spawn_add_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        if newGroup { posix_spawnattr_setpgroup(&attributes, 0) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        func attempt() -> Int32 {
            searchingPath
                ? posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
                : posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        var status = attempt()
        for retry in 0..<6 where status == ETXTBSY {
            usleep(UInt32(5_000 << retry))
            status = attempt()
        }
        guard status == 0 else { throw CannotStart(executable: executable, reason: String(cString: strerror(status))) }
        return pid
    }
}
