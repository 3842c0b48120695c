public import Indexing
import PluginAPI

/// Search as the SQLite index does it (see ``CandidateRanking``): the matches in priority order are counted up to
/// the limit and the first are candidates; when there are more, the first matches in the best fields and in the
/// names join them; the shared scorer ranks them. A word matches as the SQLite index's postings match it: every term is
/// the prefix of a folded word of the scope's fields.
extension MemorySearchIndex {
    public func search(_ query: SearchQuery) async throws -> SearchResults {
        let typed = query.terms
        guard !typed.words.isEmpty else { return SearchResults(total: 0, totalIsExact: true, hits: []) }
        let ranking = CandidateRanking(query: query, terms: typed)
        let now = clock.now()
        let searched = query.searchedDomains
        return tables.read { tables in
            let visible = tables.rows.values.filter { row in
                row.item.expirationDate! > now && tables.isLive(row)
                    && searched.map { domains in domains.contains { DomainIdentifier.isWithin(row.item.domainIdentifier, $0) } } ?? true
                    && query.audience.mayFind(access: row.item.access)
                    && query.contentType.map { row.item.contentType == $0 } ?? true
                    && query.version.admits(version: row.item.version, isCurrent: row.item.isCurrentVersion)
            }
            .sorted { $0.id < $1.id }
            /// The first `limit` visible rows whose words in `scope`'s fields satisfy the terms' match (``WordMatch``),
            /// in priority order.
            func scan(_ terms: SearchTerms, _ scope: CandidateRanking.Scope, limit: Int) -> [MemoryTables.Row] {
                let match = terms.match!
                return Array(visible.lazy.filter { row in
                    match.isSatisfied { term, isPrefix in
                        scope.columns.contains { column in
                            row.words[column, default: []].contains { word in
                                isPrefix ? word.utf8.starts(with: term.utf8) : word.utf8.elementsEqual(term.utf8)
                            }
                        }
                    }
                }.prefix(limit))
            }
            let gathered = ranking.gatherLevels(
                terms: typed, correct: { $0.corrected(typed, vocabulary: tables.vocabularyWords(for: $0.lookups)) }, scan: scan, id: \.id
            )
            let rowsByID = Dictionary(uniqueKeysWithValues: visible.map { ($0.id, $0) })
            func candidate(_ row: MemoryTables.Row) -> CandidateRanking.Candidate {
                CandidateRanking.Candidate(
                    id: row.id, title: row.item.title, displayName: row.item.displayName, keywords: KeywordList.encode(row.item.keywords),
                    authorNames: KeywordList.encode(row.item.authorNames), contentDescription: row.item.contentDescription, rankingHint: row.item.rankingHint,
                    page: SearchDistinct.page(domain: row.item.domainIdentifier, related: row.item.relatedUniqueIdentifier, unique: row.item.uniqueIdentifier)
                )
            }
            let popularity = Popularity(query: query, now: now)
            let walked = WalkedMatch.isNeeded(by: query) ? scan(gathered.matched, .all, limit: WalkedMatch.rowsRead).map { row in
                WalkedMatch(
                    id: row.id, created: row.item.contentCreationDate?.timeIntervalSince1970, domain: row.item.domainIdentifier,
                    contentType: row.item.contentType, version: row.item.version, page: SearchDistinct.page(domain: row.item.domainIdentifier, related: row.item.relatedUniqueIdentifier, unique: row.item.uniqueIdentifier)
                )
            } : []
            let page: [(id: Int64, score: Double)]
            let total: (total: Int, isExact: Bool)
            switch query.sort {
            case .relevance:
                let candidates = gathered.candidates.map(candidate)
                page = CandidateRanking(query: query, terms: gathered.terms).page(
                    of: candidates, gathered: gathered, lifts: tables.lifts(of: gathered.candidates, popularity: popularity)
                )
                total = ranking.total(matches: gathered.matches, candidates: candidates)
            case .newest:
                let order = NewestOrder(walked: walked, offset: query.offset, limit: query.limit, distinct: query.distinct)
                let scored = order.toScore.compactMap { rowsByID[$0] }
                page = order.page(
                    ranking: CandidateRanking(query: query, terms: gathered.terms), candidates: scored.map(candidate), gathered: gathered,
                    lifts: tables.lifts(of: scored, popularity: popularity)
                )
                total = order.total
            }
            let results = SearchResults(total: total.total, totalIsExact: total.isExact, hits: page.compactMap { id, score in
                rowsByID[id].map { SearchHit($0.item, score: score) }
            }).presented(for: query, terms: gathered.terms)
            return query.facets.isEmpty ? results : FacetCounter(facets: query.facets, counting: walked).applied(to: results)
        }
    }
}
