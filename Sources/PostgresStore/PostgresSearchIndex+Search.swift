public import Indexing
import Foundation
import PluginAPI
import PostgresNIO

/// Search as the SQLite index does it (see ``CandidateRanking``): the first matches in priority order are counted
/// and taken as candidates; when there are more, the first matches in the best fields and in the names join
/// them; the candidates are scored in Swift by the same scorer, so both backends rank alike.
///
/// The words are matched as prefixes through the GIN indexes of `words_all`, `words_best` and `words_names`.
/// Taking the best-field and name matches whenever the first scan overflows gives the same candidates as SQLite's
/// stepwise scans: name matches are best-field matches, and both are matches.
extension PostgresSearchIndex {
    public func search(_ query: SearchQuery) async throws -> SearchResults {
        let terms = SearchTerms(query.text)
        guard !terms.words.isEmpty else { return SearchResults(total: 0, totalIsExact: true, hits: []) }
        let ranking = CandidateRanking(query: query, terms: terms)
        let prefixQuery = ItemWords.prefixQuery(terms)
        let now = clock.now().timeIntervalSince1970

        /// `SELECT <selected> FROM item WHERE <words> @@ query AND <filters> ORDER BY id LIMIT limit`.
        func scan(_ column: String, selecting selected: String = "id", limit: Int, into sql: inout SQLBuilder) {
            sql.append("SELECT \(selected) FROM item WHERE \(column) @@ \(sql.bind(prefixQuery))::tsquery AND expiration_date > \(sql.bind(now))")
            sql.append(" AND \(PostgresPurgedDomains.liveCondition)")
            if let domain = query.domain {
                sql.append(" AND ")
                sql.appendDomainRange(domain)
            }
            if let contentType = query.contentType { sql.append(" AND content_type = \(sql.bind(contentType))") }
            sql.append(" ORDER BY id LIMIT \(sql.bind(limit))")
        }

        var first = SQLBuilder()
        scan("words_all", limit: ranking.countLimit + 1, into: &first)
        var firstMatches: [Int64] = []
        for try await id in try await client.query(first.query, logger: logger).decode(Int64.self) { firstMatches.append(id) }

        var candidates = SQLBuilder(
            "SELECT id, title, display_name, keywords, content_description, ranking_hint FROM item WHERE id IN ("
        )
        candidates.append("SELECT unnest(\(candidates.bind(Array(firstMatches.prefix(ranking.perScope))))::bigint[])")
        if firstMatches.count > ranking.perScope {
            for column in ["words_best", "words_names"] {
                candidates.append(" UNION (")
                scan(column, limit: ranking.perScope, into: &candidates)
                candidates.append(")")
            }
        }
        candidates.append(")")
        var rows: [CandidateRanking.Candidate] = []
        let candidateRows = try await client.query(candidates.query, logger: logger)
        for try await (id, title, name, keywords, description, hint) in candidateRows.decode((Int64, String?, String?, String, String?, Int?).self) {
            rows.append(CandidateRanking.Candidate(id: id, title: title, displayName: name, keywords: keywords, contentDescription: description, rankingHint: hint))
        }
        let page = ranking.page(of: rows)
        let total = ranking.total(matches: firstMatches.count)
        let results = SearchResults(total: total.total, totalIsExact: total.isExact, hits: try await hits(for: page)).highlighted(for: terms)
        guard !query.facets.isEmpty else { return results }
        var counter = FacetCounter(facets: query.facets)
        var matches = SQLBuilder()
        scan("words_all", selecting: "domain_identifier, content_type", limit: FacetCounter.rowsToRead, into: &matches)
        for try await (domain, contentType) in try await client.query(matches.query, logger: logger).decode((String, String).self) {
            counter.add(domain: domain, contentType: contentType)
        }
        return counter.applied(to: results)
    }

    /// The hits for a ranked page of item ids and scores, in the same order.
    private func hits(for page: [(id: Int64, score: Double)]) async throws -> [SearchHit] {
        guard !page.isEmpty else { return [] }
        let rows = try await client.query(
            """
            SELECT id, unique_identifier, domain_identifier, content_type, title, display_name, content_description,
                keywords, content_url, ranking_hint, expiration_date
            FROM item WHERE id = ANY(\(page.map(\.id)))
            """,
            logger: logger
        )
        var hitsByID: [Int64: SearchHit] = [:]
        let scores = Dictionary(uniqueKeysWithValues: page.map { ($0.id, $0.score) })
        for try await (id, identifier, domain, type, title, name, description, keywords, contentURL, hint, expiration) in rows.decode(
            (Int64, String, String, String, String?, String?, String?, String, String?, Int?, Double).self
        ) {
            hitsByID[id] = SearchHit(
                uniqueIdentifier: identifier, domainIdentifier: domain, contentType: type, title: title, displayName: name,
                contentDescription: description, keywords: KeywordList.decode(keywords), contentURL: contentURL, rankingHint: hint,
                expirationDate: Date(timeIntervalSince1970: expiration), score: scores[id] ?? 0
            )
        }
        return page.compactMap { hitsByID[$0.id] }
    }
}
