/// The order of a newest-first search (``SearchSort/newest``), shared by every store: the matches are walked in
/// priority order (up to ``SearchSort/newestConsideredMatches`` and one more), sorted by creation date, latest first,
/// items without one last; items of the same date are ordered by relevance, as ``CandidateRanking`` orders a page.
///
/// Only the items that can reach the page are scored: the page's own, and every item sharing a date with one of them
/// (a group of more than ``maxScoredTies`` such items ranks its first ones in priority order by relevance, the rest
/// after them in priority order, so that every page cuts the same order).
package struct NewestOrder {
    /// Items of one date ranked by relevance, at most: past them, a date's items follow in priority order.
    package static let maxScoredTies = 1_000

    /// The matches counted (at most ``SearchSort/newestConsideredMatches``), and whether that is all of them.
    package let total: (total: Int, isExact: Bool)
    /// The items to score (fetch as ``CandidateRanking/Candidate`` and score): the page's and its dates' ties.
    package let toScore: [Int64]
    private let groups: [[Int64]]
    private let window: Range<Int>
    /// Where the first group starts in the date order.
    private let firstGroupStart: Int

    /// The order of the walked matches (``WalkedMatch``, in priority order), for the page `offset..<offset + limit`.
    package init(walked: [WalkedMatch], offset: Int, limit: Int) {
        let considered = walked.prefix(SearchSort.newestConsideredMatches)
        total = (considered.count, walked.count <= SearchSort.newestConsideredMatches)
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
        window = min(offset, sorted.count)..<min(offset + limit, sorted.count)
        var groups: [[Int64]] = []
        var start = window.lowerBound
        if !window.isEmpty {
            while start > 0, sorted[start - 1].created == sorted[window.lowerBound].created { start -= 1 }
            var index = start
            while index < sorted.count, index < window.upperBound || sorted[index].created == sorted[index - 1].created {
                var end = index + 1
                while end < sorted.count, sorted[end].created == sorted[index].created { end += 1 }
                groups.append(sorted[index..<end].map(\.id))
                index = end
            }
        }
        self.groups = groups
        firstGroupStart = start
        var toScore = Set(groups.flatMap { $0.prefix(Self.maxScoredTies) })
        for position in window { toScore.insert(sorted[position].id) }
        self.toScore = toScore.sorted()
    }

    /// The page: `candidates` (the items of ``toScore``) scored by `ranking` (with `gathered`'s levels and the lifts
    /// of opens), in the order above; with their scores.
    package func page<Row>(
        ranking: CandidateRanking, candidates: [CandidateRanking.Candidate], gathered: GatheredCandidates<Row>, lifts: [Int64: Double]
    ) -> [(id: Int64, score: Double)] {
        let ranked = Dictionary(
            ranking.ranked(candidates, gathered: gathered, lifts: lifts).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }
        )
        // An item the walk found but the candidates lack (deleted between two reads) keeps its place, last of its
        // group, so pages neither repeat nor skip an item; its hit is then missing from its page.
        let order = groups.flatMap { group in
            let scored = group.prefix(Self.maxScoredTies)
            return scored.compactMap { ranked[$0] }.sorted(by: CandidateRanking.Ranked.isBetter).map(\.id)
                + scored.filter { ranked[$0] == nil } + group.dropFirst(Self.maxScoredTies)
        }
        let from = window.lowerBound - firstGroupStart
        return order[min(from, order.count)..<min(from + window.count, order.count)].map { id in (id, ranked[id]?.score ?? 0) }
    }
}
