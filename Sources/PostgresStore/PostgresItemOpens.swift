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

    /// The domain index (purges) and the item-and-day index (the cap on queries, the daily sweep).
    static let createIndexes = [
        "CREATE INDEX item_open_domain ON item_open (domain_identifier)", "CREATE INDEX item_open_day ON item_open (unique_identifier, day)",
    ]

    /// Adds `tallies` to the counts of the items that are live; drops the others, and a query's new count past the
    /// item's ``OpenTally/maxQueriesPerItemAndDay`` that day (new queries of one write ranked in order; replicas writing
    /// the same item at once may pass it by a few). The items are locked first (`FOR KEY SHARE`, in identifier order),
    /// then the counts in key order (``OpenTally/merged(_:)``): the order an index commit takes them in, so a write of
    /// counts and a commit rarely wait on each other in a cycle.
    static func record(_ tallies: [OpenTally], _ client: PostgresClient, logger: Logger) async throws {
        let ordered = OpenTally.merged(tallies)
        guard !ordered.isEmpty else { return }
        let identifiers = ordered.map(\.key.identifier), queries = ordered.map { $0.key.query ?? "" }
        let days = ordered.map(\.key.day), opens = ordered.map(\.opens)
        try await client.transaction(logger: logger) { connection in
            // Numbered under the counter's row lock, so that writes of counts become visible in number order.
            var number: Int64 = 0
            for try await taken in try await connection.checkedQuery(
                "UPDATE open_commit SET last_number = last_number + 1 RETURNING last_number", logger: logger
            ).decode(Int64.self) { number = taken }
            try await connection.checkedQuery(
            """
            WITH live AS (
                SELECT unique_identifier, domain_identifier FROM item
                WHERE unique_identifier = ANY(\(identifiers)::text[]) AND \(unescaped: PostgresPurgedDomains.liveCondition)
                ORDER BY unique_identifier COLLATE "C" FOR KEY SHARE OF item
            ), t AS (
                SELECT t.*, EXISTS (
                    SELECT 1 FROM item_open o WHERE o.unique_identifier = t.identifier AND o.query = t.query AND o.day = t.day
                ) AS known
                FROM unnest(\(identifiers)::text[], \(queries)::text[], \(days)::integer[], \(opens)::bigint[]) WITH ORDINALITY
                    AS t(identifier, query, day, opens, position)
            ), ranked AS (
                SELECT t.*, row_number() OVER (PARTITION BY t.identifier, t.day, t.query = '' OR t.known ORDER BY t.position) AS rank FROM t
            )
            INSERT INTO item_open (unique_identifier, query, day, domain_identifier, opens, written_in)
            SELECT live.unique_identifier, ranked.query, ranked.day, live.domain_identifier, ranked.opens, \(number)
            FROM ranked JOIN live ON live.unique_identifier = ranked.identifier
            WHERE ranked.query = '' OR ranked.known
                OR (SELECT count(*) FROM item_open o WHERE o.unique_identifier = ranked.identifier AND o.day = ranked.day AND o.query <> '')
                    + ranked.rank <= \(unescaped: String(OpenTally.maxQueriesPerItemAndDay))
            ORDER BY ranked.position
            ON CONFLICT (unique_identifier, query, day) DO UPDATE SET opens = item_open.opens + EXCLUDED.opens, written_in = EXCLUDED.written_in
            """,
            logger: logger
            )
        }
    }

    /// Moves the opens of `identifiers` to the domain their item is in now, in the upsert's transaction: a purge of
    /// its new domain then deletes them. Nothing is read when no item was ever opened.
    static func followDomainMoves(of identifiers: [String], _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.checkedQuery(
            """
            UPDATE item_open SET domain_identifier = item.domain_identifier FROM item
            WHERE EXISTS (SELECT 1 FROM item_open LIMIT 1) AND item.unique_identifier = ANY(\(identifiers)::text[])
                AND item_open.unique_identifier = item.unique_identifier AND item_open.domain_identifier <> item.domain_identifier
            """,
            logger: logger
        )
    }

    /// Appends to a query over the candidate rows `alias` (with `unique_identifier`) the columns `for_query`, `days`
    /// and `opens`: each candidate's open counts that ``Popularity`` reads, as arrays, read from `item_open` by its key
    /// alone; `NULL`s when `popularity` is `nil`.
    static func appendOpens(of alias: String, popularity: Popularity?, into sql: inout SQLBuilder) {
        guard let popularity else {
            sql.append(" CROSS JOIN (SELECT NULL::boolean[] AS for_query, NULL::bigint[] AS days, NULL::bigint[] AS opens) o")
            return
        }
        sql.append("""
             LEFT JOIN LATERAL (
                SELECT array_agg(query <> '') AS for_query, array_agg(day::bigint) AS days, array_agg(opens) AS opens FROM item_open
                WHERE unique_identifier = \(alias).unique_identifier AND query IN ('', \(sql.bind(popularity.query ?? ""))) AND day >= \(sql.bind(popularity.firstDay))
            ) o ON true
            """)
    }

    /// The counts of the item `identifier`.
    static func tallies(identifier: String, _ client: PostgresClient, logger: Logger) async throws -> [OpenTally] {
        var tallies: [OpenTally] = []
        let rows = try await client.checkedQuery(
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
        try await connection.checkedQuery(sql.query, logger: logger)
    }
}
