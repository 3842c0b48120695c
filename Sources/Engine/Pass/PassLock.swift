import Foundation

/// Exclusive locks beside a database, each held for the scope of a closure: across processes (and between two
/// holders in one process) one holder at a time, released when the closure returns or throws, and by the operating
/// system when the holding process dies.
///
/// ``withPass(localFilesPath:_:)`` guards one reconcile pass (`<db>.lock`), so two passes never work on the same
/// units at once; ``withService(localFilesPath:_:)`` is held by `scheduler run` for its whole life
/// (`<db>.service.lock`). A long-running process opens the pass lock's file once (``passLockFile(localFilesPath:)``)
/// and takes it with ``withPass(file:_:)``, which opens nothing.
public enum PassLock {
    /// Another holder has the lock.
    public struct Busy: Error, CustomStringConvertible {
        public let path: String
        public let holder: String
        public var description: String { "\(holder) (lock \(path) is held)" }
    }

    static let passHolder = "another scheduler pass is running on this database"
    static let serviceHolder = "another `scheduler run` is already serving this database"

    /// The file of the pass lock of `localFilesPath`, to open once and take with ``withPass(file:_:)``.
    public static func passLockFile(localFilesPath: String) throws(LockFile.CannotOpen) -> LockFile {
        try LockFile(path: localFilesPath + ".lock")
    }

    /// Runs `body` holding the pass lock of `file`; throws ``Busy`` without running `body` when another holder has it.
    public static func withPass<Result>(file: LockFile, _ body: () async throws -> Result) async throws -> Result {
        try await holding(file, holder: passHolder, body)
    }

    /// Runs `body` holding the pass lock of `localFilesPath`, its file opened for the scope; throws
    /// ``LockFile/CannotOpen`` or ``Busy`` without running `body`.
    public static func withPass<Result>(localFilesPath: String, _ body: () async throws -> Result) async throws -> Result {
        try await holding(passLockFile(localFilesPath: localFilesPath), holder: passHolder, body)
    }

    /// Runs `body` holding the lock `scheduler run` holds while it serves `localFilesPath`; throws
    /// ``LockFile/CannotOpen`` or ``Busy`` without running `body`.
    public static func withService<Result>(localFilesPath: String, _ body: () async throws -> Result) async throws -> Result {
        try await holding(LockFile(path: localFilesPath + ".service.lock"), holder: serviceHolder, body)
    }

    /// Whether a `scheduler run` serves `localFilesPath` now (``LockFile/isHeld(path:)``): `nil` when its lock file
    /// cannot be read.
    public static func isServing(localFilesPath: String) -> Bool? {
        LockFile.isHeld(path: localFilesPath + ".service.lock")
    }

    /// Takes the lock of `file` without waiting, runs `body`, and releases it.
    private static func holding<Result>(_ file: LockFile, holder: String, _ body: () async throws -> Result) async throws -> Result {
        guard file.tryLock() else { throw Busy(path: file.path, holder: holder) }
        defer { file.unlock() }
        return try await body()
    }
}
