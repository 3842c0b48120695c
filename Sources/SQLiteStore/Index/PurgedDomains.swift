import Foundation
import GRDB
import Indexing

/// Purges that are instant: a purge commits a tombstone (`purged_domain`: the domain and the last commit number
/// it covers), and every read treats an item under a tombstone, written by that commit or an earlier one, as gone.
/// The rows are deleted afterwards in small transactions (``reclaim(_:limit:)``), so no purge holds the write lock
/// for long. A crash between the two leaves the tombstone: the domain stays invisible and reclaiming resumes.
/// An item written after the purge (same identifier or not) is alive: its commit number is higher.
///
/// A purge a configuration change caused is *restorable* until `restorableUntil`: its rows are kept, untouched by
/// the reclaimer, and ``restore(_:domain:now:)`` deletes the tombstone, which makes them live again in one commit.
/// The reclaimer's first step on an expired one clears `restorableUntil` in its transaction: from then on, nothing
/// can bring back a half-reclaimed domain.
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
        try purge(db, domain: domain, commitNumber: number, deletingThisCommitsRows: deletingThisCommitsRows, now: now, restorableUntil: nil).removed
    }

    /// Tombstones `domain` inside commit `number`, restorable until `until` when it is given and no earlier purge
    /// of the same domain is still being reclaimed (a restore would bring back that purge's rows too): returns how
    /// many items the purge removed and whether it is restorable.
    static func purge(
        _ db: Database, domain: String, commitNumber number: Int64, deletingThisCommitsRows: Bool, now: Date, restorableUntil until: Date?
    ) throws -> (removed: Int, restorable: Bool) {
        let range = DomainRange(domain: domain)
        let restorable = try until != nil && !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM purged_domain WHERE domain = ?)", arguments: [domain])!
        let written = !deletingThisCommitsRows ? 0 : try ItemRows(db: db).delete(
            where: DomainRange.condition() + " AND commitNumber = ?", arguments: range.arguments + [number]
        )
        // Opens go with every purge, restorable or not: analytics never show a purged item, and a search copy, which
        // purges for good, holds the same counts.
        try db.execute(sql: "DELETE FROM item_open WHERE \(DomainRange.condition())", arguments: range.arguments)
        let hidden = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM item WHERE \(DomainRange.condition()) AND \(liveCondition())", arguments: range.arguments
        ) ?? 0
        try db.execute(
            sql: """
                INSERT INTO purged_domain (domain, throughCommit, purgedAt, items, restorableUntil) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (domain) DO UPDATE SET throughCommit = excluded.throughCommit, purgedAt = excluded.purgedAt,
                    items = purged_domain.items + excluded.items, restorableUntil = NULL
                """,
            arguments: [domain, number - 1, now.timeIntervalSince1970, hidden, restorable ? until?.timeIntervalSince1970 : nil]
        )
        return (written + hidden, restorable)
    }

    /// Deletes the tombstone of `domain` when it is restorable at `now`, making its rows live again (the caller's
    /// commit makes every cache read again); returns how many items it had purged, or `nil` when there is no such
    /// purge (none, not restorable, expired, or reclaiming).
    static func restore(_ db: Database, domain: String, now: Date) throws -> Int? {
        try Int.fetchOne(
            db, sql: "DELETE FROM purged_domain WHERE domain = ? AND restorableUntil > ? RETURNING items",
            arguments: [domain, now.timeIntervalSince1970]
        )
    }

    /// The purges that were restorable, by domain, with until when (some perhaps past, until a reclaim step or a
    /// final purge ends them).
    static func restorable(_ db: Database) throws -> [String: Date] {
        let rows = try Row.fetchAll(db, sql: "SELECT domain, restorableUntil FROM purged_domain WHERE restorableUntil IS NOT NULL")
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["domain"], Date(timeIntervalSince1970: $0["restorableUntil"])) })
    }

    /// Deletes up to `limit` rows of the oldest tombstone not restorable at `now`, and the tombstone once none is
    /// left; returns how many rows were deleted, or `nil` when no such purge is pending. Its first step on a purge
    /// whose grace ended makes it final.
    static func reclaim(_ db: Database, limit: Int, now: Date) throws -> Int? {
        guard let tombstone = try Row.fetchOne(
            db, sql: "SELECT domain, throughCommit FROM purged_domain WHERE coalesce(restorableUntil, 0) <= ? ORDER BY purgedAt, domain LIMIT 1",
            arguments: [now.timeIntervalSince1970]
        ) else {
            return nil
        }
        let domain: String = tombstone["domain"], through: Int64 = tombstone["throughCommit"]
        try db.execute(sql: "UPDATE purged_domain SET restorableUntil = NULL WHERE domain = ? AND restorableUntil IS NOT NULL", arguments: [domain])
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
        try Row.fetchAll(db, sql: "SELECT domain, throughCommit, purgedAt, items, restorableUntil FROM purged_domain ORDER BY purgedAt, domain").map { row in
            let domain: String = row["domain"]
            let range = DomainRange(domain: domain)
            let left = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM item WHERE \(DomainRange.condition()) AND commitNumber <= ?",
                arguments: range.arguments + [row["throughCommit"] as Int64]
            ) ?? 0
            return PendingPurge(
                domain: domain, purgedAt: Date(timeIntervalSince1970: row["purgedAt"]), purgedItems: row["items"], rowsLeft: left,
                restorableUntil: (row["restorableUntil"] as Double?).map(Date.init(timeIntervalSince1970:))
            )
        }
    }
}
