import Foundation
import GRDB
import Indexing

extension SQLiteSearchIndex {
    /// The database as of one read transaction, copied page by page (SQLite's backup API) into a new file at
    /// `temporaryPath`, which is opened and unlinked before this returns: writers go on meanwhile, and a crash leaves
    /// at most that file, which its owner removes at its next start.
    ///
    /// The copy runs off the concurrency pool: at a million items it copies about 1.4 GB.
    func snapshot(to temporaryPath: String) async throws -> ReadOnlyFile {
        let database = database
        return try await PostingsSaving.offThePool { _ in
            defer { try? FileManager.default.removeItem(atPath: temporaryPath) }
            var configuration = Configuration()
            // Nothing to roll back or keep across a crash: the file is read once, then gone.
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
            }
            do {
                let destination = try DatabaseQueue(path: temporaryPath, configuration: configuration)
                try database.backup(to: destination)
                try destination.close()
            }
            return try ReadOnlyFile(path: temporaryPath)
        }
    }
}
