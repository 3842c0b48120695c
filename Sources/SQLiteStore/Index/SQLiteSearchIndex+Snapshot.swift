import Foundation
import GRDB
import HostSupport
import Indexing

extension SQLiteSearchIndex {
    /// The database as of one read transaction, copied page by page (SQLite's backup API) into a new file at
    /// `temporaryPath`, which is opened and unlinked before this returns: writers go on meanwhile, and a crash leaves
    /// at most that file, which its owner removes at its next start.
    ///
    /// The copy runs off the concurrency pool: at a million items it copies about 1.4 GB.
    func snapshot(to temporaryPath: String) async throws -> ReadOnlyFile {
        let (database, path) = (database, path)
        return try await offThePool { _ in
            try Self.requireRoomForSnapshot(of: path)
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

    /// Throws unless the disk of the database at `path` has room for a copy of it (its file and write-ahead log) and
    /// 256 MB to spare: a snapshot must not fill the disk the index writes to.
    private static func requireRoomForSnapshot(of path: String) throws {
        let size = ["", "-wal"].reduce(UInt64(0)) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? UInt64) ?? 0)
        }
        var disk = statvfs()
        guard statvfs(path, &disk) == 0 else { return }
        let free = UInt64(disk.f_bavail) * UInt64(disk.f_frsize)
        guard free >= size + (256 << 20) else {
            throw IndexError.cannotOpen(path: path, reason: "a snapshot needs \(size / 1_000_000) MB and the disk has \(free / 1_000_000) MB free")
        }
    }
}
