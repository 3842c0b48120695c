/// What the scans of one search found, level after level, as every store gathers it (``CandidateRanking``): the
/// words as typed; when they match too few items, their typo corrections; when those match nothing, the same words
/// without the last, then without the last two… Each level matches every item the one before did, so its count is
/// the search's total, and the candidates of all levels are ranked together.
package struct GatheredCandidates<Row> {
    /// The rows to rank, each once: those of the first level, then the new ones of each level.
    package private(set) var candidates: [Row]
    /// How many matches the last level's first scan counted (it asks for ``CandidateRanking/countLimit`` and one more).
    package private(set) var matches: Int
    /// The typed words with their corrections: what candidates are scored and highlighted on.
    package private(set) var terms: SearchTerms
    /// The words of the last level scanned: ``terms`` or fewer of them (facets count its matches).
    package private(set) var matched: SearchTerms
    /// The candidates that matched the words as typed, when corrections were looked for: they hold no typo.
    package private(set) var asTyped: Set<Int64> = []
    private var seen: Set<Int64>
    private let id: (Row) -> Int64

    /// The first level: the words as typed, the candidates and matches their scans gave.
    package init(terms: SearchTerms, candidates: [Row], matches: Int, id: @escaping (Row) -> Int64) {
        self.candidates = candidates
        self.matches = matches
        self.terms = terms
        matched = terms
        seen = Set(candidates.map(id))
        self.id = id
    }

    /// Adds the level of the corrected words (`terms`, which match every item the typed words do).
    package mutating func addCorrected(_ terms: SearchTerms, candidates more: [Row], matches: Int) {
        asTyped = seen
        add(more, matches: matches, terms: terms)
        self.terms = terms
    }

    /// Adds the level of the same words without the last ones (`terms`).
    package mutating func addBroadened(_ terms: SearchTerms, candidates more: [Row], matches: Int) {
        add(more, matches: matches, terms: terms)
    }

    private mutating func add(_ more: [Row], matches: Int, terms: SearchTerms) {
        candidates += more.filter { seen.insert(id($0)).inserted }
        self.matches = matches
        matched = terms
    }
}
