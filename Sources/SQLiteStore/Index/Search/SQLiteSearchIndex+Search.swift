import Foundation
import GRDB
public import Indexing

/// Search without scoring every match: the search postings (``SearchPostings``) give each word's matches in
/// row-identifier order, which is ``ItemPriority`` order, so each query below stops after a bounded number of rows.
///
/// 1. One scan counts the matches up to ``CandidateRanking/countedMatches`` (or the page's end; past that, `total` is a lower
///    bound) and takes the first `k` as candidates, highest ranking hint first, where `k` is
///    ``CandidateRanking/candidatesPerScope`` or the page's end.
/// 2. When there are more than `k` matches, the first `k` items matching in their title, display name and
///    keywords and author names join the candidates, then, if there were `k` of those, the first `k` matching in
///    their title and display name: the best fields are never crowded out by matches in the others. Each scan reads
///    the postings of its scope's fields, so it stops after `k` matches whatever the other fields hold. A search
///    first brings the postings to its read's commit (the rows written since theirs); when there are none (being
///    built, dropped, or not kept for the scope: `search.postings`), it reads the rows themselves in id order and
///    checks each one's text, which gives the same matches slowly.
/// 3. The candidates are scored by ``RelevanceScore`` and sorted; the page is cut from that order.
///
/// When a query matches no more than `k` items the ranking is exact; when it matches more, the best items
/// among the highest-priority `k` of each scan are ranked, which is what an as-you-type search needs.
///
/// When the words as typed match fewer than ``CandidateRanking/fewMatches`` items, the words that may hold typos are looked up in
/// the vocabulary (``SearchTermTable``) and the scans run again with their corrections (``TypoCorrector``); when
/// nothing matches, again without the last words (``CandidateRanking/gatherLevels``).
///
/// A newest-first search (``SearchSort/newest``) gathers the same levels, then walks the matches of the last one in
/// priority order, up to ``SearchSort/newestConsideredMatches`` as facets do, reading each one's creation date, and
/// scores only the items that can reach the page (``NewestOrder``). That walk takes the matches from the postings of
/// every field when they hold the search's commit, else from the rows.
///
/// The postings are shared and move to newer commits as searches and the keeper catch them up: a search whose read
/// they moved past runs again in a newer read (``searchReads``).
///
/// Results are kept in a ``SearchResultCache`` and answered again while they stay exact. Each search is one
/// ``SQLiteSearch``, whose ``SQLiteSearch/run()`` reads as the steps above.
extension SQLiteSearchIndex {
    public func search(_ query: SearchQuery) async throws -> SearchResults {
        let typed = query.terms
        guard !typed.words.isEmpty else { return SearchResults(total: 0, totalIsExact: true, hits: []) }
        let now = clock.now()
        let filter = SearchRowFilter(query, now: now)
        let cacheKey = SearchResultCache.Key(query: query, terms: typed, now: now)
        let (cache, postings, sharedRows) = (resultCache, postings, candidateRows)
        let generation = cache.generation
        defer { postings.noteSearch() }
        var reads = 1
        while true {
            let mayReadAgain = reads < Self.searchReads
            do {
                return try await database.read { db in
                    let commitNumber = try Self.lastCommitNumber(db)
                    if let cached = cache.results(for: cacheKey, commitNumber: commitNumber, now: now) { return cached }
                    let search = SQLiteSearch(
                        query, terms: typed, filter: filter, in: db, commitNumber: commitNumber, now: now, postings: postings,
                        sharedRows: sharedRows, mayReadAgain: mayReadAgain
                    )
                    let results = try search.run()
                    if search.scannedRows { postings.noteRowScan() }
                    cache.store(results, for: cacheKey, commitNumber: commitNumber, validUntil: search.validUntil, generation: generation)
                    return results
                }
            } catch is SQLiteSearch.PostingsMovedOn where mayReadAgain {
                reads += 1
            }
        }
    }

    /// How many reads a search may take when the postings move past each one's commit as it runs (writes landing
    /// faster than searches end); the last one scans rows instead.
    static let searchReads = 8
}
