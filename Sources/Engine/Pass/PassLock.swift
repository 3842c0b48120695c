import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a database for one pass, held through `flock` on a file beside it: two passes never
/// work on the same units at once, across processes, and the operating system releases the lock when the
/// process holding it dies.
public final class PassLock: Sendable {
    /// Another process holds the lock.
    public struct Busy: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "another scheduler pass is running on this database (lock \(path) is held)" }
    }

    public let path: String
    private let descriptor: Int32

    /// The lock file could not be created.
    public struct CannotCreate: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot create the lock file \(path): \(reason); check that its folder is writable" }
    }

    /// Takes the lock of `databasePath` without waiting, creating the database's folder if needed; throws
    /// ``Busy`` when another process holds it.
    public init(databasePath: String) throws {
        path = databasePath + ".lock"
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
        )
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw Busy(path: path)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
