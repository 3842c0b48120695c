import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program started in a process group of its own, with its standard output and error on pipes and its
/// input from `/dev/null`: stopping it signals the whole group, so a shell script's `sleep` or a pipeline
/// it started is stopped with it and cannot keep the output pipe open.
final class SpawnedProcess: Sendable {
    /// How the program ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// The program could not be started.
    struct CannotStart: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    /// The read end of the program's standard output.
    let output: Int32
    /// The read end of the program's standard error.
    let errors: Int32

    /// Starts `executable` (an absolute path) with `arguments` in `directory`, with exactly `environment`.
    init(executable: String, arguments: [String], directory: String, environment: [String: String]) throws(CannotStart) {
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard let addChdir = Self.addChdir, let pipe2 = Self.pipe2 else {
            throw CannotStart(description: "this C library lacks pipe2 or posix_spawn_file_actions_addchdir_np (glibc 2.29 or later is needed)")
        }
        // Close-on-exec from the start, so no other program started meanwhile inherits them and holds the
        // pipes open; `dup2` in the child clears the flag on its standard output and error only.
        guard pipe2(&outputPipe, O_CLOEXEC) == 0, pipe2(&errorPipe, O_CLOEXEC) == 0 else {
            throw CannotStart(description: "cannot create pipes: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        _ = addChdir(&actions, directory)
        // Nothing else this process has open reaches the program: not a socket, not a database file, not the
        // pipe a parent uses to notice this process's exit.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

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
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np`, `…_addclosefrom_np` (2.34) and `pipe2`, which Swift's Glibc module does not export
    /// (they are declared only with `_GNU_SOURCE`).
    private static let addChdir = symbol(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self
    )
    private static let addCloseFrom = symbol(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
    )
    private static let pipe2 = symbol("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)

    private static func symbol<F>(_ name: String, as type: F.Type) -> F? {
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }

    /// Sends `signal` to the program and everything in its process group.
    func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Waits until the program has ended, and says how.
    func waitForExit() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
