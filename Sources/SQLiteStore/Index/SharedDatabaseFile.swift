import Foundation
import GRDB
import Indexing

/// Opening and migrating a database file that other processes may be opening at the same moment: replicas
/// starting together, or `scheduler search` while `run-once` creates the file.
enum SharedDatabaseFile {
    /// How many times an open or a migration that lost a race with another process is tried again.
    static let attempts = 20

    /// Opens the file at `path`. Switching a new file to WAL takes a lock that SQLite does not wait for even with a
    /// busy timeout, so a busy answer is tried again after a short pause.
    static func open(path: String, configuration: Configuration) throws -> DatabasePool {
        var attempt = 1
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < attempts {
                Thread.sleep(forTimeInterval: 0.005 * Double(attempt))
                attempt += 1
            }
        }
    }

    /// Applies `migrator`'s migrations to `database`. GRDB reads which migrations a file has before the transaction
    /// that applies one, so two processes opening a new file can both run the first, and the loser's transaction
    /// fails ("table item already exists") and rolls back. When another process applied migrations meanwhile, the
    /// migrations are tried again; an error with no such progress is the migration's own, and is thrown.
    static func migrate(_ database: DatabasePool, with migrator: DatabaseMigrator) throws {
        var attempt = 1
        while true {
            let before = try database.read(migrator.appliedIdentifiers)
            do {
                return try migrator.migrate(database)
            } catch let error as DatabaseError where attempt < attempts {
                guard try database.read(migrator.appliedIdentifiers) != before else { throw error }
                attempt += 1
            }
        }
    }
}
