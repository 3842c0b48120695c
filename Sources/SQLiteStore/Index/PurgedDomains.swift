import Foundation
import GRDB
import Indexing

/// Purges that are instant: a purge commits a tombstone (`purged_domain`: the domain and the last commit number
/// it covers), and every read treats an item under a tombstone, written by that commit or an earlier one, as gone.
/// The rows are deleted afterwards in small transactions (``reclaim(_:limit:)``), so no purge holds the write lock
/// for long. A crash between the two leaves the tombstone: the domain stays invisible and reclaiming resumes.
/// An item written after the purge (same identifier or not) is alive: its commit number is higher.
enum PurgedDomains {
    /// The SQL condition "the row `alias` is not under a tombstone that covers it".
    static func liveCondition(_ alias: String = "item") -> String {
        """
        NOT EXISTS (SELECT 1 FROM purged_domain p WHERE \(alias).commitNumber <= p.throughCommit AND (\(alias).domainIdentifier = p.domain \
        OR (\(alias).domainIdentifier >= p.domain || '.' AND \(alias).domainIdentifier < p.domain || '/')))
        """
    }

    static let createTable = """
        CREATE TABLE purged_domain (
            domain TEXT PRIMARY KEY,
            throughCommit INTEGER NOT NULL,
            purgedAt REAL NOT NULL,
            items INTEGER NOT NULL
        )
        """

    /// Tombstones `domain` inside commit `number`: every older live row becomes invisible, and the rows this commit
    /// already wrote there, if it wrote any, are deleted at once (they are few: one batch). Returns how many items
    /// the purge removed. Reads the `item_domain` index only, never a row.
    static func purge(_ db: Database, domain: String, commitNumber number: Int64, deletingThisCommitsRows: Bool, now: Date) throws -> Int {
        let range = DomainRange(domain: domain)
        let written = !deletingThisCommitsRows ? 0 : try ItemRows(db: db).delete(
            where: DomainRange.condition() + " AND commitNumber = ?", arguments: range.arguments + [number]
        )
        try db.execute(sql: "DELETE FROM item_open WHERE \(DomainRange.condition())", arguments: range.arguments)
        let hidden = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM item WHERE \(DomainRange.condition()) AND \(liveCondition())", arguments: range.arguments
        ) ?? 0
        try db.execute(
            sql: """
                INSERT INTO purged_domain (domain, throughCommit, purgedAt, items) VALUES (?, ?, ?, ?)
                ON CONFLICT (domain) DO UPDATE SET throughCommit = excluded.throughCommit, purgedAt = excluded.purgedAt,
                    items = purged_domain.items + excluded.items
                """,
            arguments: [domain, number - 1, now.timeIntervalSince1970, hidden]
        )
        return written + hidden
    }

    /// Deletes up to `limit` rows of the oldest tombstone, and the tombstone once none is left; returns how many rows
    /// were deleted, or `nil` when no purge is pending.
    static func reclaim(_ db: Database, limit: Int) throws -> Int? {
        guard let tombstone = try Row.fetchOne(db, sql: "SELECT domain, throughCommit FROM purged_domain ORDER BY purgedAt, domain LIMIT 1") else {
            return nil
        }
        let domain: String = tombstone["domain"], through: Int64 = tombstone["throughCommit"]
        let range = DomainRange(domain: domain)
        let ids = try Int64.fetchAll(
            db, sql: "SELECT id FROM item WHERE \(DomainRange.condition()) AND commitNumber <= ? LIMIT ?", arguments: range.arguments + [through, limit]
        )
        let deleted = ids.isEmpty ? 0 : try ItemRows(db: db).delete(
            where: "id IN (SELECT value FROM json_each(?))", arguments: [RowIDList.json(ids)]
        )
        if ids.count < limit {
            try db.execute(sql: "DELETE FROM purged_domain WHERE domain = ? AND throughCommit = ?", arguments: [domain, through])
        }
        return deleted
    }

    /// The tombstones and how many of their rows are still on disk.
    static func pending(_ db: Database) throws -> [PendingPurge] {
        try Row.fetchAll(db, sql: "SELECT domain, throughCommit, purgedAt, items FROM purged_domain ORDER BY purgedAt, domain").map { row in
            let domain: String = row["domain"]
            let range = DomainRange(domain: domain)
            let left = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM item WHERE \(DomainRange.condition()) AND commitNumber <= ?",
                arguments: range.arguments + [row["throughCommit"] as Int64]
            ) ?? 0
            return PendingPurge(domain: domain, purgedAt: Date(timeIntervalSince1970: row["purgedAt"]), purgedItems: row["items"], rowsLeft: left)
        }
    }
}
