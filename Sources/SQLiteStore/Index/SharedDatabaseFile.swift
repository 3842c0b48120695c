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
    ///
    /// A file a later release migrated further is refused before anything is written: this release would read what
    /// it does not know how to (packed descriptions, say) as something else.
    static func migrate(_ database: DatabasePool, with migrator: DatabaseMigrator) throws {
        var attempt = 1
        while true {
            let before = try database.read(migrator.appliedIdentifiers)
            let unknown = before.subtracting(migrator.migrations)
            guard unknown.isEmpty else { throw SchemaFromLaterRelease(migrations: unknown.sorted()) }
            do {
                return try migrator.migrate(database)
            } catch let error as DatabaseError where attempt < attempts {
                guard try database.read(migrator.appliedIdentifiers) != before else { throw error }
                attempt += 1
            }
        }
    }
}

/// A database file a later release of the scheduler migrated: this one refuses to open it.
struct SchemaFromLaterRelease: Error, CustomStringConvertible {
    var migrations: [String]
    var description: String {
        "a later release of the scheduler changed its schema (\(migrations.joined(separator: ", "))); run that release or a later one "
            + "(this one would misread what it wrote), or restore a backup made before"
    }
}
