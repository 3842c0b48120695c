import Foundation

/// An exclusive lock beside a database, held until this value is released: across processes (and between two
/// holders in one process) only one holder at a time, and the operating system releases it when the holding
/// process dies.
///
/// ``pass(localFilesPath:)`` guards one reconcile pass (`<db>.lock`), so two passes never work on the same
/// units at once; ``service(localFilesPath:)`` is held by `scheduler run` for its whole life (`<db>.service.lock`).
/// A long-running process opens the pass lock's file once (``LockFile``) and takes it with ``pass(file:)``.
public final class PassLock: Sendable {
    /// Another holder has the lock.
    public struct Busy: Error, CustomStringConvertible {
        public let path: String
        public let holder: String
        public var description: String { "\(holder) (lock \(path) is held)" }
    }

    static let passHolder = "another scheduler pass is running on this database"

    public let file: LockFile
    public var path: String { file.path }

    /// The file of the pass lock of `localFilesPath`, to open once and take with ``pass(file:)``.
    public static func passLockFile(localFilesPath: String) throws(LockFile.CannotOpen) -> LockFile {
        try LockFile(path: localFilesPath + ".lock")
    }

    /// The lock of one pass over `localFilesPath`, taken without waiting.
    public static func pass(localFilesPath: String) throws -> PassLock {
        try PassLock(file: passLockFile(localFilesPath: localFilesPath), holder: passHolder)
    }

    /// The lock of one pass, on a lock file opened before, taken without waiting.
    public static func pass(file: LockFile) throws(Busy) -> PassLock {
        try PassLock(file: file, holder: passHolder)
    }

    /// Runs `body` holding the pass lock of `file`, released when `body` returns or throws; throws ``Busy`` without
    /// running `body` when another holder has it.
    public static func withPass<Result>(file: LockFile, _ body: () async throws -> Result) async throws -> Result {
        try await pass(file: file).holding(body)
    }

    /// Runs `body` holding this lock, released when `body` returns or throws (by the lock's deinit, once this
    /// scope no longer keeps it).
    public func holding<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        defer { withExtendedLifetime(self) {} }
        return try await body()
    }

    /// The lock `scheduler run` holds while it serves `localFilesPath`, taken without waiting.
    public static func service(localFilesPath: String) throws -> PassLock {
        try PassLock(file: LockFile(path: localFilesPath + ".service.lock"), holder: "another `scheduler run` is already serving this database")
    }

    /// Takes the lock of `file` without waiting; throws ``Busy`` naming `holder` when it is held.
    init(file: LockFile, holder: String) throws(Busy) {
        guard file.tryLock() else { throw Busy(path: file.path, holder: holder) }
        self.file = file
    }

    deinit { file.unlock() }
}
