import Foundation
import Indexing
import Logging
import PostgresNIO

/// Instant purges on PostgreSQL, as on SQLite: a purge commits a tombstone in `purged_domain` (the domain and the last
/// commit number it covers), every read treats a row under it written by that commit or an earlier one as gone, and
/// the rows are deleted afterwards in small transactions that any replica may run.
enum PostgresPurgedDomains {
    /// The SQL condition "the `item` row is not under a tombstone that covers it" (text of this module, no parameter).
    static let liveCondition = """
        NOT EXISTS (SELECT 1 FROM purged_domain p WHERE item.commit_number <= p.through_commit AND (item.domain_identifier = p.domain \
        OR (item.domain_identifier >= p.domain || '.' AND item.domain_identifier < p.domain || '/')))
        """

    static let createTable = """
        CREATE TABLE purged_domain (
            domain TEXT COLLATE "C" PRIMARY KEY,
            through_commit BIGINT NOT NULL,
            purged_at DOUBLE PRECISION NOT NULL,
            items BIGINT NOT NULL
        )
        """

    /// Tombstones `domain` inside the transaction of commit `number`; returns how many items it hid (the rows this
    /// commit already wrote there are deleted at once).
    static func purge(_ connection: PostgresConnection, domain: String, commitNumber number: Int64, now: Date, logger: Logger) async throws -> Int {
        try await purge(connection, domain: domain, commitNumber: number, now: now, restorableUntil: nil, logger: logger).removed
    }

    /// Tombstones `domain` inside the transaction of commit `number`, restorable until `until` when it is given and no
    /// earlier purge of the same domain is still being reclaimed (a restore would bring back its rows too); returns
    /// how many items it hid and whether it is restorable. A copy of the index purges the domain for good.
    static func purge(
        _ connection: PostgresConnection, domain: String, commitNumber number: Int64, now: Date, restorableUntil until: Date?, logger: Logger
    ) async throws -> (removed: Int, restorable: Bool) {
        var restorable = false
        if until != nil {
            let earlier = try await PostgresSearchIndex.count(connection, logger: logger, "SELECT count(*) FROM purged_domain WHERE domain = \(domain)")
            restorable = earlier == 0
        }
        var written = SQLBuilder("WITH gone AS (DELETE FROM item WHERE ")
        written.appendDomainRange(domain)
        written.append(" AND commit_number = \(written.bind(number)) RETURNING 1) SELECT count(*) FROM gone")
        let deleted = try await PostgresSearchIndex.count(connection, logger: logger, written.query)
        try await PostgresItemOpens.deleteOpens(inDomain: domain, connection, logger: logger)
        try await PostgresItemRemovals.logRemoval(ofDomain: domain, commitNumber: number, now: now, connection, logger: logger)
        var live = SQLBuilder("SELECT count(*) FROM item WHERE ")
        live.appendDomainRange(domain)
        live.append(" AND \(liveCondition)")
        let hidden = try await PostgresSearchIndex.count(connection, logger: logger, live.query)
        let keptUntil = restorable ? until?.timeIntervalSince1970 : nil
        try await connection.checkedQuery(
            """
            INSERT INTO purged_domain (domain, through_commit, purged_at, items, restorable_until)
            VALUES (\(domain), \(number - 1), \(now.timeIntervalSince1970), \(hidden), \(keptUntil))
            ON CONFLICT (domain) DO UPDATE SET through_commit = EXCLUDED.through_commit, purged_at = EXCLUDED.purged_at,
                items = purged_domain.items + EXCLUDED.items, restorable_until = NULL
            """,
            logger: logger
        )
        return (deleted + hidden, restorable)
    }

    /// Deletes the tombstone of `domain` when it is restorable at `now`, inside the transaction of commit `number`,
    /// and gives its rows that number, so that the copies of the index, which purged the domain for good, read them
    /// again as changed items; returns how many items it had purged, or `nil` when there is no such purge. A reclaim
    /// step that made it final first holds its row: this waits for it, then finds nothing.
    static func restore(_ connection: PostgresConnection, domain: String, commitNumber number: Int64, now: Date, logger: Logger) async throws -> Int? {
        var tombstone: (Int64, Int64)?
        for try await row in try await connection.checkedQuery(
            """
            DELETE FROM purged_domain WHERE domain = \(domain) AND restorable_until > \(now.timeIntervalSince1970) RETURNING through_commit, items
            """,
            logger: logger
        ).decode((Int64, Int64).self) { tombstone = row }
        guard let (through, items) = tombstone else { return nil }
        var sql = SQLBuilder("UPDATE item SET commit_number = ")
        sql.append("\(sql.bind(number)) WHERE ")
        sql.appendDomainRange(domain)
        // Only the rows live again: those another purge (of a domain above or below) still hides keep their number.
        sql.append(" AND commit_number <= \(sql.bind(through)) AND \(liveCondition)")
        try await connection.checkedQuery(sql.query, logger: logger)
        return Int(items)
    }

    /// The purges that were restorable, by domain, with until when.
    static func restorable(_ client: PostgresClient, logger: Logger) async throws -> [String: Date] {
        var purges: [String: Date] = [:]
        for try await (domain, until) in try await client.checkedQuery(
            "SELECT domain, restorable_until FROM purged_domain WHERE restorable_until IS NOT NULL", logger: logger
        ).decode((String, Double).self) { purges[domain] = Date(timeIntervalSince1970: until) }
        return purges
    }

    /// Deletes up to `limit` rows of the oldest tombstone, and the tombstone once none is left; `nil` when none is
    /// pending. Replicas reclaiming together skip each other's rows.
    static func reclaim(_ client: PostgresClient, limit: Int, now: Date, logger: Logger) async throws -> Int? {
        try await client.transaction(logger: logger) { connection in
            var tombstone: (String, Int64)?
            // Locked, so that a restore waits for this step and then finds the purge made final.
            for try await row in try await connection.checkedQuery(
                """
                SELECT domain, through_commit FROM purged_domain WHERE coalesce(restorable_until, 0) <= \(now.timeIntervalSince1970)
                ORDER BY purged_at, domain LIMIT 1 FOR UPDATE
                """,
                logger: logger
            ).decode((String, Int64).self) { tombstone = row }
            guard let (domain, through) = tombstone else { return nil }
            try await connection.checkedQuery("UPDATE purged_domain SET restorable_until = NULL WHERE domain = \(domain)", logger: logger)
            var sql = SQLBuilder("WITH doomed AS (SELECT id FROM item WHERE ")
            sql.appendDomainRange(domain)
            sql.append(" AND commit_number <= \(sql.bind(through)) LIMIT \(sql.bind(limit)) FOR UPDATE SKIP LOCKED),")
            sql.append(" gone AS (DELETE FROM item WHERE id IN (SELECT id FROM doomed) RETURNING 1) SELECT count(*) FROM gone")
            let deleted = try await PostgresSearchIndex.count(connection, logger: logger, sql.query)
            if deleted < limit {
                var remaining = SQLBuilder("DELETE FROM purged_domain WHERE domain = ")
                remaining.append("\(remaining.bind(domain)) AND through_commit = \(remaining.bind(through)) AND NOT EXISTS (SELECT 1 FROM item WHERE ")
                remaining.appendDomainRange(domain)
                remaining.append(" AND commit_number <= \(remaining.bind(through)))")
                try await connection.checkedQuery(remaining.query, logger: logger)
            }
            return deleted
        }
    }

    /// The tombstones and how many of their rows are still stored.
    static func pending(_ client: PostgresClient, logger: Logger) async throws -> [PendingPurge] {
        var tombstones: [(String, Int64, Double, Int64, Double?)] = []
        for try await row in try await client.checkedQuery(
            "SELECT domain, through_commit, purged_at, items, restorable_until FROM purged_domain ORDER BY purged_at, domain", logger: logger
        ).decode((String, Int64, Double, Int64, Double?).self) { tombstones.append(row) }
        var pending: [PendingPurge] = []
        for (domain, through, purgedAt, items, until) in tombstones {
            var sql = SQLBuilder("SELECT count(*) FROM item WHERE ")
            sql.appendDomainRange(domain)
            sql.append(" AND commit_number <= \(sql.bind(through))")
            var left = 0
            for try await count in try await client.checkedQuery(sql.query, logger: logger).decode(Int64.self) { left = Int(count) }
            pending.append(PendingPurge(
                domain: domain, purgedAt: Date(timeIntervalSince1970: purgedAt), purgedItems: Int(items), rowsLeft: left,
                restorableUntil: until.map(Date.init(timeIntervalSince1970:))
            ))
        }
        return pending
    }
}
