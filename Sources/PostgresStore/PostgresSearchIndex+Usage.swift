import Foundation
public import Indexing
import Logging
import PostgresNIO

/// What people searched for and opened (``SearchUsage``), shared by every replica: `item_open`
/// (``PostgresItemOpens``) and `search_query`.
extension PostgresSearchIndex {
    static let createSearchQueryTable = """
        CREATE TABLE search_query (
            query TEXT COLLATE "C" NOT NULL,
            day INTEGER NOT NULL,
            searches BIGINT NOT NULL,
            without_hits BIGINT NOT NULL,
            PRIMARY KEY (query, day)
        )
        """

    public func recordOpens(_ tallies: [OpenTally]) async throws {
        try await PostgresItemOpens.record(tallies, client, logger: logger)
    }

    public func openTallies(identifier: String) async throws -> [OpenTally] {
        try await PostgresItemOpens.tallies(identifier: identifier, client, logger: logger)
    }

    /// One statement, its rows taken in key order (``SearchTally/merged(_:)``): replicas never wait on each other in a cycle.
    public func recordSearches(_ tallies: [SearchTally]) async throws {
        let merged = SearchTally.merged(tallies)
        guard !merged.isEmpty else { return }
        let (queries, days) = (merged.map(\.query), merged.map(\.day))
        let (searches, withoutHits) = (merged.map(\.searches), merged.map(\.withoutHits))
        try await client.checkedQuery(
            """
            INSERT INTO search_query (query, day, searches, without_hits)
            SELECT t.query, t.day, t.searches, t.without_hits
            FROM unnest(\(queries)::text[], \(days)::integer[], \(searches)::bigint[], \(withoutHits)::bigint[]) WITH ORDINALITY
                AS t(query, day, searches, without_hits, position)
            ORDER BY t.position
            ON CONFLICT (query, day) DO UPDATE SET searches = search_query.searches + EXCLUDED.searches,
                without_hits = search_query.without_hits + EXCLUDED.without_hits
            """,
            logger: logger
        )
    }

    @discardableResult
    public func deleteUsage(before day: Int) async throws -> Int {
        try await client.transaction(logger: logger) { connection in
            // A write of counts for the copies that follow them (``IndexChangeFeed``), numbered as every other.
            try await connection.checkedQuery(
                "UPDATE open_commit SET last_number = last_number + 1, usage_deleted_before = greatest(usage_deleted_before, \(day))", logger: logger
            )
            return try await Self.count(connection, logger: logger, "WITH gone AS (DELETE FROM item_open WHERE day < \(day) RETURNING 1) SELECT count(*) FROM gone")
                + Self.count(connection, logger: logger, "WITH gone AS (DELETE FROM search_query WHERE day < \(day) RETURNING 1) SELECT count(*) FROM gone")
        }
    }

    public func analytics(since day: Int, limit: Int) async throws -> SearchAnalytics {
        var totals = (searches: 0, withoutHits: 0)
        for try await row in try await client.checkedQuery(
            "SELECT coalesce(sum(searches), 0)::bigint, coalesce(sum(without_hits), 0)::bigint FROM search_query WHERE day >= \(day)", logger: logger
        ).decode((Int, Int).self) {
            totals = row
        }
        var opens = 0
        for try await count in try await client.checkedQuery(
            "SELECT coalesce(sum(opens), 0)::bigint FROM item_open WHERE query = '' AND day >= \(day)", logger: logger
        ).decode(Int.self) {
            opens = count
        }
        func queries(noHitsOnly: Bool) async throws -> [(query: String, searches: Int, withoutHits: Int)] {
            let rows = try await client.checkedQuery(
                """
                SELECT query, sum(searches)::bigint AS s, sum(without_hits)::bigint AS w FROM search_query WHERE day >= \(day)
                GROUP BY query HAVING \(unescaped: noHitsOnly ? "sum(without_hits) > 0" : "true")
                ORDER BY \(unescaped: noHitsOnly ? "w" : "s") DESC, query LIMIT \(limit)
                """,
                logger: logger
            )
            var found: [(query: String, searches: Int, withoutHits: Int)] = []
            for try await row in rows.decode((String, Int, Int).self) { found.append(row) }
            return found
        }
        let top = try await queries(noHitsOnly: false), withoutHits = try await queries(noHitsOnly: true)
        var opensByQuery: [String: Int] = [:]
        let listed = SearchAnalytics.listedQueries(top, withoutHits)
        for try await (query, count) in try await client.checkedQuery(
            "SELECT query, sum(opens)::bigint FROM item_open WHERE query = ANY(\(listed)::text[]) AND day >= \(day) GROUP BY query", logger: logger
        ).decode((String, Int).self) {
            opensByQuery[query] = count
        }
        var mostOpened: [SearchAnalytics.Item] = []
        for try await (identifier, title, count) in try await client.checkedQuery(
            """
            SELECT o.unique_identifier, (SELECT title FROM item WHERE unique_identifier = o.unique_identifier), sum(o.opens)::bigint AS n
            FROM item_open o WHERE o.query = '' AND o.day >= \(day)
            GROUP BY o.unique_identifier ORDER BY n DESC, o.unique_identifier COLLATE "C" LIMIT \(limit)
            """,
            logger: logger
        ).decode((String, String?, Int).self) {
            mostOpened.append(SearchAnalytics.Item(uniqueIdentifier: identifier, title: title, opens: count))
        }
        return SearchAnalytics(
            sinceDay: day, searches: totals.searches, searchesWithoutHits: totals.withoutHits, opens: opens, topQueries: top,
            queriesWithoutHits: withoutHits, opensByQuery: opensByQuery, mostOpened: mostOpened
        )
    }
}
