/// The order of a newest-first search (``SearchSort/newest``), shared by every store: the matches are walked in
/// priority order (up to ``SearchSort/newestConsideredMatches`` and one more), sorted by creation date, latest first,
/// items without one last; items of the same date are ordered by relevance, as ``CandidateRanking`` orders a page.
/// With ``SearchDistinct/page`` the entries ordered are pages (an item and the items naming it their related one, at
/// the date of the first of them in that order), each shown by its best match.
///
/// Only the items that can reach the page are scored: those of the page's entries, and of every entry sharing a date
/// with one of them (a date's entries past ``maxScoredTies`` follow the ranked ones in priority order, so that every
/// page cuts the same order).
package struct NewestOrder {
    /// Entries of one date ranked by relevance, at most: past them, a date's entries follow in priority order.
    package static let maxScoredTies = 1_000

    /// The matches (or pages) counted, at most ``SearchSort/newestConsideredMatches`` matches, and whether that is all.
    package let total: (total: Int, isExact: Bool)
    /// The items to score (fetch as ``CandidateRanking/Candidate`` and score): those of the page's entries and their ties.
    package let toScore: [Int64]
    /// The entries of the dates the page reaches, date by date, each entry its items in priority order.
    private let dates: [[[Int64]]]
    private let window: Range<Int>
    /// Where the first of ``dates`` starts in the order of entries.
    private let firstDateStart: Int

    /// The order of the walked matches (``WalkedMatch``, in priority order), for the page `offset..<offset + limit`;
    /// one entry a page when `distinct` is ``SearchDistinct/page``.
    package init(walked: [WalkedMatch], offset: Int, limit: Int, distinct: SearchDistinct? = nil) {
        let considered = walked.prefix(SearchSort.newestConsideredMatches)
        // Latest first, undated last; the sort is stable, so each date's items stay in priority order.
        let sorted = considered.enumerated().sorted { left, right in
            let (a, b) = (left.element.created, right.element.created)
            if a != b {
                guard let a else { return false }
                guard let b else { return true }
                return a > b
            }
            return left.offset < right.offset
        }.map(\.element)
        // The entries, in date order: an item each, or a page each (where its first item stands).
        var entries: [(created: Double?, items: [Int64])] = []
        var entryOfPage: [String: Int] = [:]
        for match in sorted {
            if distinct == .page, let index = entryOfPage[match.page] {
                entries[index].items.append(match.id)
                continue
            }
            if distinct == .page { entryOfPage[match.page] = entries.count }
            entries.append((match.created, [match.id]))
        }
        total = (entries.count, walked.count <= SearchSort.newestConsideredMatches)
        window = min(offset, entries.count)..<min(offset + limit, entries.count)
        var dates: [[[Int64]]] = []
        var start = window.lowerBound
        if !window.isEmpty {
            while start > 0, entries[start - 1].created == entries[window.lowerBound].created { start -= 1 }
            var index = start
            while index < entries.count, index < window.upperBound || entries[index].created == entries[index - 1].created {
                var end = index + 1
                while end < entries.count, entries[end].created == entries[index].created { end += 1 }
                dates.append(entries[index..<end].map(\.items))
                index = end
            }
        }
        self.dates = dates
        firstDateStart = start
        var toScore = Set(dates.flatMap { $0.prefix(Self.maxScoredTies).joined() })
        for position in window { toScore.formUnion(entries[position].items) }
        self.toScore = toScore.sorted()
    }

    /// The page: `candidates` (the items of ``toScore``) scored by `ranking` (with `gathered`'s levels and the lifts
    /// of opens), in the order above, an entry shown by its best item; with their scores.
    package func page<Row>(
        ranking: CandidateRanking, candidates: [CandidateRanking.Candidate], gathered: GatheredCandidates<Row>, lifts: [Int64: Double]
    ) -> [(id: Int64, score: Double)] {
        let ranked = Dictionary(
            ranking.ranked(candidates, gathered: gathered, lifts: lifts).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }
        )
        /// An entry's best scored item, or its first when none is scored.
        func best(_ items: [Int64]) -> Int64 {
            items.compactMap { ranked[$0] }.min(by: CandidateRanking.Ranked.isBetter)?.id ?? items[0]
        }
        // An entry whose items the candidates lack (deleted between two reads) keeps its place, last of its date's
        // ranked ones, so pages neither repeat nor skip an entry; its hit is then missing from its page.
        let order = dates.flatMap { entries in
            let scored = entries.prefix(Self.maxScoredTies).map(best)
            return scored.compactMap { ranked[$0] }.sorted(by: CandidateRanking.Ranked.isBetter).map(\.id)
                + scored.filter { ranked[$0] == nil } + entries.dropFirst(Self.maxScoredTies).map(best)
        }
        let from = window.lowerBound - firstDateStart
        return order[min(from, order.count)..<min(from + window.count, order.count)].map { id in (id, ranked[id]?.score ?? 0) }
    }
}
