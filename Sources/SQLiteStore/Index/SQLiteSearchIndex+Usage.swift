import Foundation
import GRDB
public import Indexing

/// What people searched for and opened (``SearchUsage``), in the index's file: `item_open` (``ItemOpenTable``) and
/// `search_query` (``SearchQueryTable``).
extension SQLiteSearchIndex {
    public func recordOpens(_ tallies: [OpenTally]) async throws {
        try await write { db in try ItemOpenTable.record(tallies, db) }
        // Opens change rankings without a commit: results kept before them are no longer what a search computes.
        resultCache.removeAll()
    }

    public func openTallies(identifier: String) async throws -> [OpenTally] {
        try await database.read { db in try ItemOpenTable.tallies(identifier: identifier, db) }
    }

    public func recordSearches(_ tallies: [SearchTally]) async throws {
        try await write { db in try SearchQueryTable.record(tallies, db) }
    }

    @discardableResult
    public func deleteUsage(before day: Int) async throws -> Int {
        let deleted = try await write { db in
            try db.execute(sql: "DELETE FROM item_open WHERE day < ?", arguments: [day])
            let opens = db.changesCount
            try db.execute(sql: "DELETE FROM search_query WHERE day < ?", arguments: [day])
            return opens + db.changesCount
        }
        resultCache.removeAll()
        return deleted
    }

    public func analytics(since day: Int, limit: Int) async throws -> SearchAnalytics {
        try await database.read { db in
            let totals = try Row.fetchOne(db, sql: "SELECT coalesce(sum(searches), 0), coalesce(sum(withoutHits), 0) FROM search_query WHERE day >= ?", arguments: [day])!
            let opens = try Int.fetchOne(db, sql: "SELECT coalesce(sum(opens), 0) FROM item_open WHERE query = '' AND day >= ?", arguments: [day]) ?? 0
            func queries(_ order: String) throws -> [(query: String, searches: Int, withoutHits: Int)] {
                try Row.fetchAll(db, sql: """
                    SELECT query, sum(searches) AS s, sum(withoutHits) AS w FROM search_query WHERE day >= ?
                    GROUP BY query \(order), query LIMIT ?
                    """, arguments: [day, limit]).map { ($0[0], $0[1], $0[2]) }
            }
            let top = try queries("ORDER BY s DESC"), withoutHits = try queries("HAVING w > 0 ORDER BY w DESC")
            let listed = SearchAnalytics.listedQueries(top, withoutHits)
            let opensByQuery = try Row.fetchAll(db, sql: """
                SELECT query, sum(opens) FROM item_open WHERE query IN (SELECT value FROM json_each(?)) AND day >= ? GROUP BY query
                """, arguments: [String(decoding: try JSONEncoder().encode(listed), as: UTF8.self), day])
                .reduce(into: [String: Int]()) { $0[$1[0]] = $1[1] }
            let mostOpened = try Row.fetchAll(db, sql: """
                SELECT o.uniqueIdentifier, (SELECT title FROM item WHERE uniqueIdentifier = o.uniqueIdentifier), sum(o.opens) AS n
                FROM item_open o WHERE o.query = '' AND o.day >= ? GROUP BY o.uniqueIdentifier ORDER BY n DESC, o.uniqueIdentifier LIMIT ?
                """, arguments: [day, limit]).map { SearchAnalytics.Item(uniqueIdentifier: $0[0], title: $0[1], opens: $0[2]) }
            return SearchAnalytics(
                sinceDay: day, searches: totals[0], searchesWithoutHits: totals[1], opens: opens, topQueries: top, queriesWithoutHits: withoutHits,
                opensByQuery: opensByQuery, mostOpened: mostOpened
            )
        }
    }
}
