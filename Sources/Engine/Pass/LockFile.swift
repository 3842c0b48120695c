import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A lock file, opened once, whose exclusive `flock` can be taken and released many times: what a long-running
/// process keeps so that taking the lock for each pass opens nothing (no descriptor to run out of, no folder
/// whose permissions matter any more).
///
/// Exclusive across processes (through `flock`, released by the operating system when the process dies) and
/// between tasks of this process (a `flock` on one open file would not exclude them).
public final class LockFile: Sendable {
    /// The lock file could not be opened or created.
    public struct CannotOpen: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot open the lock file \(path): \(reason); check that its folder exists and is writable" }
    }

    public let path: String
    private let descriptor: Int32
    private let isTaken = Mutex(false)

    /// Opens (creating it and its folder if needed) the lock file at `path`.
    public init(path: String) throws(CannotOpen) {
        self.path = path
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
        )
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CannotOpen(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(descriptor) }

    /// Takes the lock without waiting; `false` when another process or another task of this one holds it.
    func tryLock() -> Bool {
        isTaken.withLock { taken in
            guard !taken, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
            taken = true
            return true
        }
    }

    func unlock() {
        isTaken.withLock { taken in
            flock(descriptor, LOCK_UN)
            taken = false
        }
    }
}
