public import Indexing
import Foundation
import PluginAPI
import PostgresNIO

/// Search as the SQLite index does it (see ``CandidateRanking``): the first matches in priority order are counted
/// and taken as candidates; when there are more, the first matches in the best fields and in the names join
/// them; the candidates are scored in Swift by the same scorer, so both backends rank alike.
///
/// The words are matched as prefixes through the GIN indexes of `words_all`, `words_best` and `words_names`; typo
/// corrections (``TypoCorrector``) are read from `search_term`, the vocabulary, when the words as typed match too few.
/// Taking the best-field and name matches whenever the first scan overflows gives the same candidates as SQLite's
/// stepwise scans: name matches are best-field matches, and both are matches.
///
/// With a ``SearchCopy`` (the service's copy of the index on this machine), the copy answers whenever it holds every
/// commit, catching up on the spot when it is a few behind; the scans below run only while it is made or far behind,
/// and when the copy's own file fails (said in the log); an error of the database itself is thrown as without a copy.
extension PostgresSearchIndex {
    public func search(_ query: SearchQuery) async throws -> SearchResults {
        if let searchCopy {
            do {
                if let results = try await searchCopy.search(query, following: self) { return results }
            } catch let failure as SearchCopyFailure {
                logger.warning("\(failure); PostgreSQL answers")
            }
        }
        let typed = query.terms
        guard !typed.words.isEmpty else { return SearchResults(total: 0, totalIsExact: true, hits: []) }
        return try await PostgresSearch(query, terms: typed, in: self, frequencies: await wordFrequencies.current()).run()
    }

    /// One search against PostgreSQL, step by step: gather the candidates of every level, walk the matches when
    /// facets or the newest-first order need them, order, page and highlight.
    private struct PostgresSearch {
        let query: SearchQuery
        let typed: SearchTerms
        let index: PostgresSearchIndex
        let ranking: CandidateRanking
        /// The search's clock reading, in seconds since 1970: rows expiring by then are left out.
        let now: Double
        /// PostgreSQL's statistics of the words, by which each scan chooses how it finds its matches.
        let frequencies: WordFrequencies

        init(_ query: SearchQuery, terms typed: SearchTerms, in index: PostgresSearchIndex, frequencies: WordFrequencies) {
            (self.query, self.typed, self.index, self.frequencies) = (query, typed, index, frequencies)
            ranking = CandidateRanking(query: query, terms: typed)
            now = index.clock.now().timeIntervalSince1970
        }

        func run() async throws -> SearchResults {
            let gathered = try await gatherCandidates()
            let walked = WalkedMatch.isNeeded(by: query) ? try await walk(gathered.matched) : []
            let (page, total) = try await order(gathered, walked: walked)
            let results = SearchResults(total: total.total, totalIsExact: total.isExact, hits: try await index.hits(for: page))
                .presented(for: query, terms: gathered.terms)
            return query.facets.isEmpty ? results : FacetCounter(facets: query.facets, counting: walked).applied(to: results)
        }

        /// `SELECT <selected> FROM item WHERE <words match the terms> AND <filters> ORDER BY id LIMIT limit`, the words
        /// matched as ``WordFrequencies`` estimates cheapest (``MatchLookup``).
        func scan(_ column: String, _ terms: SearchTerms, selecting selected: String = "id", limit: Int, into sql: inout SQLBuilder) {
            let match = terms.match
            let matchQuery = ItemWords.matchQuery(match)
            var lookup = frequencies.lookup(
                of: match, in: column, limit: limit, withoutAccessOnly: query.audience.groups != nil, currentVersionOnly: query.version == .current
            )
            // A walk's cost is estimated for matches in any domain, type or version; the planner knows how many rows
            // those filters keep.
            if lookup == .walk, keepsFewRows { lookup = .plannerChooses }
            sql.append("SELECT \(selected) FROM item WHERE ")
            switch lookup {
            case .plannerChooses: sql.append("\(column) @@ \(sql.bind(matchQuery))::tsquery")
            case .walk: sql.append("ts_match_vq(\(column), \(sql.bind(matchQuery))::tsquery)")
            case .lookUp(let clauses) where clauses == match: sql.append("\(column) @@ \(sql.bind(matchQuery))::tsquery")
            case .lookUp(let clauses):
                sql.append("\(column) @@ \(sql.bind(ItemWords.matchQuery(clauses)))::tsquery AND ts_match_vq(\(column), \(sql.bind(matchQuery))::tsquery)")
            }
            sql.append(" AND expiration_date > \(sql.bind(now))")
            sql.append(" AND \(PostgresPurgedDomains.liveCondition)")
            if let domains = query.searchedDomains {
                sql.append(" AND ")
                sql.appendDomainRanges(domains)
            }
            if let groups = query.audience.groups {
                sql.append(groups.isEmpty ? " AND access IS NULL" : " AND (access IS NULL OR access && \(sql.bind(groups))::text[])")
            }
            if let contentType = query.contentType { sql.append(" AND content_type = \(sql.bind(contentType))") }
            switch query.version {
            case .current: sql.append(" AND is_current_version")
            case .named(let version): sql.append(" AND version = \(sql.bind(version))")
            case .any: break
            }
            // A lookup's rows are sorted: told to order by the key, the planner would walk it, expecting a third of the
            // rows to pass `ts_match_vq`.
            if case .lookUp = lookup { sql.append(" ORDER BY id + 0") } else { sql.append(" ORDER BY id") }
            sql.append(" LIMIT \(sql.bind(limit))")
        }

        /// Whether the query searches only some domains, a content type or a named version (rows that may be few).
        var keepsFewRows: Bool {
            if case .named = query.version { return true }
            return query.searchedDomains != nil || query.contentType != nil
        }

        /// The first matches of `terms` in priority order, up to the count limit and one more: the first
        /// ``CandidateRanking/perScope`` are candidates.
        func firstMatches(_ terms: SearchTerms) async throws -> (candidates: [Int64], matches: Int) {
            var first = SQLBuilder()
            scan("words_all", terms, limit: ranking.countLimit + 1, into: &first)
            var matches: [Int64] = []
            for try await id in try await index.client.checkedQuery(first.query, logger: index.logger).decode(Int64.self) { matches.append(id) }
            return (Array(matches.prefix(ranking.perScope)), matches.count)
        }

        /// The levels every store gathers (``CandidateRanking/gatherLevels``): the words as typed; when they match too
        /// few items, their typo corrections; then fewer words while too few match. The best-field and name scans of
        /// the last level run inside the candidate query (``order(_:walked:)``).
        func gatherCandidates() async throws -> GatheredCandidates<Int64> {
            let (typedCandidates, typedMatches) = try await firstMatches(typed)
            var gathered = GatheredCandidates(terms: typed, candidates: typedCandidates, matches: typedMatches, id: { $0 })
            if let corrector = ranking.corrector(terms: typed, matches: typedMatches) {
                let corrected = corrector.corrected(typed, vocabulary: try await index.vocabularyWords(for: corrector.lookups))
                if corrected.hasCorrections {
                    let (more, matches) = try await firstMatches(corrected)
                    gathered.addCorrected(corrected, candidates: more, matches: matches)
                }
            }
            while let broader = ranking.broadened(gathered.matched, matches: gathered.matches) {
                let (more, matches) = try await firstMatches(broader)
                gathered.addBroadened(broader, candidates: more, matches: matches)
            }
            return gathered
        }

        /// The matches of `terms` in priority order, up to ``WalkedMatch/rowsRead``, for facets and the newest-first order.
        func walk(_ terms: SearchTerms) async throws -> [WalkedMatch] {
            var walk = SQLBuilder()
            scan("words_all", terms, selecting: "id, content_creation_date, domain_identifier, content_type, version, \(PostgresSearchIndex.pageColumn)",
                 limit: WalkedMatch.rowsRead, into: &walk)
            var walked: [WalkedMatch] = []
            let rows = try await index.client.checkedQuery(walk.query, logger: index.logger).decode((Int64, Double?, String, String, String?, String).self)
            for try await (id, created, domain, contentType, version, page) in rows {
                walked.append(WalkedMatch(id: id, created: created, domain: domain, contentType: contentType, version: version, page: page))
            }
            return walked
        }

        /// The page, ranked, and the total: by relevance, the candidates scored, with the best-field and name matches of
        /// the last level when it overflowed; newest first, only the walked matches that can reach the page.
        func order(
            _ gathered: GatheredCandidates<Int64>, walked: [WalkedMatch]
        ) async throws -> (page: [(id: Int64, score: Double)], total: (total: Int, isExact: Bool)) {
            let popularity = Popularity(query: query, now: Date(timeIntervalSince1970: now))
            let scorer = CandidateRanking(query: query, terms: gathered.terms)
            switch query.sort {
            case .relevance:
                let (rows, lifts) = try await index.candidates(popularity: popularity) { sql in
                    sql.append("SELECT unnest(\(sql.bind(gathered.candidates))::bigint[])")
                    guard gathered.matches > ranking.perScope else { return }
                    for column in ["words_best", "words_names"] {
                        sql.append(" UNION (")
                        scan(column, gathered.matched, limit: ranking.perScope, into: &sql)
                        sql.append(")")
                    }
                }
                return (scorer.page(of: rows, gathered: gathered, lifts: lifts), ranking.total(matches: gathered.matches, candidates: rows))
            case .newest:
                let order = NewestOrder(walked: walked, offset: query.offset, limit: query.limit, distinct: query.distinct)
                let (rows, lifts) = try await index.candidates(popularity: popularity) { sql in
                    sql.append("SELECT unnest(\(sql.bind(order.toScore))::bigint[])")
                }
                return (order.page(ranking: scorer, candidates: rows, gathered: gathered, lifts: lifts), order.total)
            }
        }
    }

    /// The page an item belongs to (``SearchDistinct/page``).
    fileprivate static let pageColumn = "domain_identifier || ' ' || coalesce(related_unique_identifier, unique_identifier)"

    /// The fields of the items whose ids `appendIDs` selects, and the lifts of their opens (``Popularity``): one round trip.
    fileprivate func candidates(
        popularity: Popularity?, ids appendIDs: (inout SQLBuilder) -> Void
    ) async throws -> (rows: [CandidateRanking.Candidate], lifts: [Int64: Double]) {
        var sql = SQLBuilder(
            "SELECT c.id, c.title, c.display_name, c.keywords, c.author_names, c.content_description, c.ranking_hint, c.page, o.for_query, o.days, o.opens FROM ("
                + "SELECT id, title, display_name, keywords, author_names, content_description, ranking_hint, unique_identifier, "
                + "\(Self.pageColumn) AS page FROM item WHERE id IN ("
        )
        appendIDs(&sql)
        sql.append(")) c")
        PostgresItemOpens.appendOpens(of: "c", popularity: popularity, into: &sql)
        var rows: [CandidateRanking.Candidate] = []
        var opens: [Popularity.Opens] = []
        for try await (id, title, name, keywords, authorNames, description, hint, page, forQuery, days, counts) in try await client.checkedQuery(sql.query, logger: logger).decode(
            (Int64, String?, String?, String, String, String?, Int?, String, [Bool]?, [Int]?, [Int]?).self
        ) {
            rows.append(CandidateRanking.Candidate(
                id: id, title: title, displayName: name, keywords: keywords, authorNames: authorNames, contentDescription: description, rankingHint: hint,
                page: page
            ))
            for (index, day) in (days ?? []).enumerated() {
                opens.append(Popularity.Opens(id: id, forQuery: forQuery?[index] ?? false, day: day, opens: counts?[index] ?? 0))
            }
        }
        return (rows, popularity?.lifts(opens) ?? [:])
    }

    /// The words of the vocabulary (`search_term`) each lookup names, in byte order.
    fileprivate func vocabularyWords(for lookups: [TypoCorrector.Lookup]) async throws -> [[String]] {
        var words: [[String]] = []
        for lookup in lookups {
            var found: [String] = []
            let rows = try await client.checkedQuery(
                """
                SELECT term FROM search_term WHERE term >= \(lookup.lower) AND term < \(lookup.upper)
                    AND char_length(term) >= \(lookup.minimumLetters) ORDER BY term LIMIT \(TypoTolerance.maxWordsRead)
                """,
                logger: logger
            )
            for try await word in rows.decode(String.self) { found.append(word) }
            words.append(found)
        }
        return words
    }

    /// The hits for a ranked page of item ids and scores, in the same order.
    fileprivate func hits(for page: [(id: Int64, score: Double)]) async throws -> [SearchHit] {
        guard !page.isEmpty else { return [] }
        let rows = try await client.checkedQuery(
            "SELECT \(unescaped: Self.itemColumns(withThumbnailData: false)) FROM item WHERE id = ANY(\(page.map(\.id)))", logger: logger
        )
        var hitsByID: [Int64: SearchHit] = [:]
        // The first score of an id the page would hold twice, rather than a trap.
        let scores = Dictionary(page.map { ($0.id, $0.score) }, uniquingKeysWith: { first, _ in first })
        for try await row in rows {
            let (id, item) = try Self.item(from: row)
            hitsByID[id] = SearchHit(item, score: scores[id] ?? 0)
        }
        return page.compactMap { hitsByID[$0.id] }
    }
}
