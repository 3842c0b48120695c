import Indexing
import Logging
import PostgresNIO

/// `item_open` in PostgreSQL: how often each item was opened, by day and by query (`''` for its count over every
/// query), shared by every replica. A row follows its item: a foreign key deletes it with the item (a delete, a stale
/// delete, an expiry, a reclaimed purge), and a purge deletes its domain's at once by the domain each row carries.
enum PostgresItemOpens {
    static let createTable = """
        CREATE TABLE item_open (
            unique_identifier TEXT NOT NULL REFERENCES item (unique_identifier) ON DELETE CASCADE,
            query TEXT NOT NULL,
            day INTEGER NOT NULL,
            domain_identifier TEXT COLLATE "C" NOT NULL,
            opens BIGINT NOT NULL,
            PRIMARY KEY (unique_identifier, query, day)
        )
        """

    /// Adds `tallies` to the counts of the items that are live; drops the others. Rows are taken in key order, so
    /// replicas writing at once never wait on each other in a cycle.
    static func record(_ tallies: [OpenTally], _ client: PostgresClient, logger: Logger) async throws {
        guard !tallies.isEmpty else { return }
        let ordered = tallies.sorted {
            ($0.key.identifier, $0.key.query ?? "", $0.key.day) < ($1.key.identifier, $1.key.query ?? "", $1.key.day)
        }
        let identifiers = ordered.map(\.key.identifier), queries = ordered.map { $0.key.query ?? "" }
        let days = ordered.map(\.key.day), opens = ordered.map(\.opens)
        try await client.query(
            """
            INSERT INTO item_open (unique_identifier, query, day, domain_identifier, opens)
            SELECT item.unique_identifier, t.query, t.day, item.domain_identifier, t.opens
            FROM unnest(\(identifiers)::text[], \(queries)::text[], \(days)::integer[], \(opens)::bigint[]) WITH ORDINALITY
                AS t(identifier, query, day, opens, position)
            JOIN item ON item.unique_identifier = t.identifier AND \(unescaped: PostgresPurgedDomains.liveCondition)
            ORDER BY t.position
            ON CONFLICT (unique_identifier, query, day) DO UPDATE SET opens = item_open.opens + EXCLUDED.opens
            """,
            logger: logger
        )
    }

    /// The counts of the item `identifier`.
    static func tallies(identifier: String, _ client: PostgresClient, logger: Logger) async throws -> [OpenTally] {
        var tallies: [OpenTally] = []
        let rows = try await client.query(
            #"SELECT query, day, opens FROM item_open WHERE unique_identifier = \#(identifier) ORDER BY query COLLATE "C", day"#, logger: logger
        )
        for try await (query, day, opens) in rows.decode((String, Int, Int).self) {
            tallies.append(OpenTally(key: OpenTally.Key(day: day, identifier: identifier, query: query.isEmpty ? nil : query), opens: opens))
        }
        return tallies
    }

    /// Deletes the opens of `domain` and the domains under it, in the purge's transaction.
    static func deleteOpens(inDomain domain: String, _ connection: PostgresConnection, logger: Logger) async throws {
        var sql = SQLBuilder("DELETE FROM item_open WHERE ")
        sql.appendDomainRange(domain)
        try await connection.query(sql.query, logger: logger)
    }
}
