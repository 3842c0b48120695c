import Foundation
import Indexing
import Logging
import PostgresNIO

/// `item_removal`: what each commit removed (items, purged domains, everything), for the copies that follow the
/// index (``IndexChangeFeed``). Written in the commit's own transaction, numbered by it; kept
/// ``retention`` and then forgotten, the number forgotten through recorded so that a copy standing before it is made
/// again.
enum PostgresItemRemovals {
    /// How long removals are kept: a replica stopped longer than this makes its copy again when it starts.
    static let retention: Duration = .seconds(7 * 86_400)

    static let createTable = """
        CREATE TABLE item_removal (
            row BIGSERIAL PRIMARY KEY,
            commit_number BIGINT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('item', 'domain', 'all')),
            key TEXT,
            removed_at DOUBLE PRECISION NOT NULL
        )
        """
    static let createIndexes = [
        "CREATE INDEX item_removal_commit ON item_removal (commit_number, row)", "CREATE INDEX item_removal_age ON item_removal (removed_at)",
    ]

    /// Ends a `WITH gone AS (DELETE FROM item WHERE …` statement: the deleted items are logged as removed by commit
    /// `number`, and the statement returns how many.
    static func appendLoggedDeletion(commitNumber number: Int64, now: Date, to sql: inout SQLBuilder) {
        sql.append(" RETURNING unique_identifier), logged AS (INSERT INTO item_removal (commit_number, kind, key, removed_at)")
        sql.append(" SELECT \(sql.bind(number)), 'item', unique_identifier, \(sql.bind(now.timeIntervalSince1970)) FROM gone)")
        sql.append(" SELECT count(*) FROM gone")
    }

    /// Logs the removal of a whole domain, or of everything (`domain` `nil`), by commit `number`.
    static func logRemoval(ofDomain domain: String?, commitNumber number: Int64, now: Date, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.checkedQuery(
            """
            INSERT INTO item_removal (commit_number, kind, key, removed_at)
            VALUES (\(number), \(domain == nil ? "all" : "domain"), \(domain), \(now.timeIntervalSince1970))
            """,
            logger: logger
        )
    }

    /// Forgets the removals older than ``retention``, recording the last commit forgotten; returns how many. Part of
    /// the expiry sweep, whether any replica keeps a copy or not. Old rows only: a commit logging new ones never waits
    /// on it, and it takes the counter's row only when it forgot something, for the moment of one update.
    static func forgetOld(_ client: PostgresClient, now: Date, logger: Logger) async throws -> Int {
        let cutoff = now.timeIntervalSince1970 - retention.seconds
        let rows = try await client.checkedQuery(
            """
            WITH gone AS (DELETE FROM item_removal WHERE removed_at < \(cutoff) RETURNING commit_number),
                noted AS (UPDATE index_commit SET removals_forgotten_through = greatest(removals_forgotten_through, (SELECT max(commit_number) FROM gone))
                    WHERE EXISTS (SELECT 1 FROM gone))
            SELECT count(*) FROM gone
            """,
            logger: logger
        )
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }
}
