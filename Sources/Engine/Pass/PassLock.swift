import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock beside a database, held through `flock` on a file: across processes (and between two
/// holders in one process) only one holder at a time, and the operating system releases it when the holding
/// process dies.
///
/// ``pass(databasePath:)`` guards one reconcile pass (`<db>.lock`), so two passes never work on the same
/// units at once; ``service(databasePath:)`` is held by `scheduler run` for its whole life (`<db>.service.lock`).
public final class PassLock: Sendable {
    /// Another holder has the lock.
    public struct Busy: Error, CustomStringConvertible {
        public let path: String
        public let holder: String
        public var description: String { "\(holder) (lock \(path) is held)" }
    }

    /// The lock file could not be created.
    public struct CannotCreate: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot create the lock file \(path): \(reason); check that its folder is writable" }
    }

    public let path: String
    private let descriptor: Int32

    /// The lock of one pass over `databasePath`, taken without waiting.
    public static func pass(databasePath: String) throws -> PassLock {
        try PassLock(path: databasePath + ".lock", holder: "another scheduler pass is running on this database")
    }

    /// The lock `scheduler run` holds while it serves `databasePath`, taken without waiting.
    public static func service(databasePath: String) throws -> PassLock {
        try PassLock(path: databasePath + ".service.lock", holder: "another `scheduler run` is already serving this database")
    }

    /// Takes the lock at `path` without waiting, creating its folder if needed; throws ``Busy`` naming
    /// `holder` when it is held.
    init(path: String, holder: String) throws {
        self.path = path
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
        )
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw Busy(path: path, holder: holder)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
