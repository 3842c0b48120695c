import Foundation
import GRDB

/// How matches are ordered: FTS5's bm25 with per-column weights, lifted by the item's ranking hint.
///
/// Weights put a match in the title well above one in the display name, keywords above the description;
/// a ranking hint of 100 doubles an item's score.
enum SearchRanking {
    /// title, displayName, keywords, contentDescription: the order of `IndexSchema.textColumns`.
    static let columnWeights = "20.0, 8.0, 4.0, 1.0"
    /// The score, higher is better: bm25 is negative, lower being better.
    static let scoreExpression = "(-bm25(item_fts, \(columnWeights)) * (1.0 + coalesce(item.rankingHint, 0) / 100.0))"
}

extension SQLiteSearchIndex {
    public func search(_ query: SearchQuery) async throws -> SearchResults {
        guard let match = SearchTerms(query.text).matchExpression else {
            return SearchResults(total: 0, hits: [])
        }
        var conditions = ["item_fts MATCH ?", "item.expirationDate > ?"]
        var arguments: StatementArguments = [match, clock.now().timeIntervalSince1970]
        if let domain = query.domain {
            let range = DomainRange(domain: domain)
            conditions.append(range.condition(column: "item.domainIdentifier"))
            arguments += range.arguments
        }
        if let contentType = query.contentType {
            conditions.append("item.contentType = ?")
            arguments += [contentType]
        }
        let from = "FROM item_fts JOIN item ON item.id = item_fts.rowid WHERE " + conditions.joined(separator: " AND ")
        let filter = arguments
        let page: StatementArguments = [query.limit, query.offset]
        return try await database.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT count(*) " + from, arguments: filter) ?? 0
            let hits = try Row.fetchAll(
                db,
                sql: """
                    SELECT item.uniqueIdentifier, item.domainIdentifier, item.contentType, item.title, item.displayName,
                        item.contentDescription, item.keywords, item.contentURL, item.rankingHint, item.expirationDate,
                        \(SearchRanking.scoreExpression) AS score
                    \(from)
                    ORDER BY score DESC, item.id
                    LIMIT ? OFFSET ?
                    """,
                arguments: filter + page
            ).map { row in
                SearchHit(
                    uniqueIdentifier: row["uniqueIdentifier"],
                    domainIdentifier: row["domainIdentifier"],
                    contentType: row["contentType"],
                    title: row["title"],
                    displayName: row["displayName"],
                    contentDescription: row["contentDescription"],
                    keywords: KeywordList.decode(row["keywords"]),
                    contentURL: row["contentURL"],
                    rankingHint: row["rankingHint"],
                    expirationDate: Date(timeIntervalSince1970: row["expirationDate"]),
                    score: row["score"]
                )
            }
            return SearchResults(total: total, hits: hits)
        }
    }
}
