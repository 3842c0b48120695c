/// The part of a search every backend shares: how many matches are counted and taken as candidates, and how the
/// candidates are scored and ordered (the SQLite store's search explains the strategy: `SQLiteSearchIndex+Search.swift`).
package struct CandidateRanking {
    /// Candidates taken from each scope (all fields, best fields, names), at least.
    package static let candidatesPerScope = 100
    /// Matches counted before `total` becomes a lower bound, at least.
    package static let countedMatches = 100
    /// With ``SearchDistinct/page``, this many times more candidates and matches: a page and its sections are indexed
    /// one after another, so the first matches in priority order are often few pages.
    static let distinctPagesFactor = 5
    /// With ``SearchDistinct/page``, the other matching items of a page shown under its hit, at most.
    static let sectionsPerPage = 3

    let query: SearchQuery
    let scorer: RelevanceScore
    /// How many words were typed (``SearchTerms/words``).
    let typedWords: Int
    /// How many candidates each scope gives: enough for the page asked.
    package let perScope: Int
    /// How many matches are counted: enough for the page asked.
    package let countLimit: Int

    package init(query: SearchQuery, terms: SearchTerms) {
        self.query = query
        typedWords = terms.words.count
        scorer = RelevanceScore(terms: terms)
        let pageEnd = query.offset + query.limit
        let factor = query.distinct == .page ? Self.distinctPagesFactor : 1
        perScope = max(Self.candidatesPerScope * factor, pageEnd)
        countLimit = max(Self.countedMatches * factor, pageEnd)
    }

    /// Where a scan looks for matches: every searchable field, the best fields (title, display name, keywords, authors), or
    /// the names (title, display name).
    package enum Scope: CaseIterable {
        case all, bestFields, names

        /// The fields this scope searches.
        package var columns: [SearchColumn] {
            switch self {
            case .all: SearchColumn.allCases
            case .bestFields: [.title, .displayName, .keywords, .authorNames]
            case .names: [.title, .displayName]
            }
        }
    }

    /// The candidates of a search whose scans walk matches in priority order: the first matches of every field, and
    /// when there are more than ``perScope``, the first of the best fields, then (if those fill a scope) the first
    /// of the names, so the best fields are never crowded out; with how many matches the first scan counted. A
    /// newest-first search orders other matches (``NewestOrder``) and takes only the first scan's.
    package func gather<Row>(
        scan: (Scope, _ limit: Int) throws -> [Row], id: (Row) -> Int64
    ) rethrows -> (candidates: [Row], matches: Int) {
        let firstMatches = try scan(.all, countLimit + 1)
        var candidates = Array(firstMatches.prefix(perScope))
        if firstMatches.count > perScope, query.sort == .relevance {
            var seen = Set(candidates.map(id))
            for scope in [Scope.bestFields, .names] {
                let found = try scan(scope, perScope)
                candidates += found.filter { seen.insert(id($0)).inserted }
                // Fewer than asked: every best-field match is a candidate now, the name matches included.
                if found.count < perScope { break }
            }
        }
        return (candidates, firstMatches.count)
    }

    /// When the words as typed match fewer items than this, typos are looked for (whatever page is asked, so every
    /// page of a search counts and orders the same matches).
    package static let fewMatches = 20
    /// Last words dropped at most, one at a time, while the words left match nothing.
    static let maxWordsDropped = 3

    /// The levels of a search (``GatheredCandidates``), each through ``gather(scan:id:)``: the words as typed; when
    /// they match fewer than ``fewMatches`` items and `correct` finds corrections of them (``TypoCorrector``), the
    /// corrected words; then, while nothing matches, the same without their last word (``broadened(_:matches:)``).
    package func gatherLevels<Row>(
        terms: SearchTerms, correct: (TypoCorrector) throws -> SearchTerms, scan: (SearchTerms, Scope, _ limit: Int) throws -> [Row],
        id: @escaping (Row) -> Int64
    ) rethrows -> GatheredCandidates<Row> {
        let (candidates, matches) = try gather(scan: { try scan(terms, $0, $1) }, id: id)
        var gathered = GatheredCandidates(terms: terms, candidates: candidates, matches: matches, id: id)
        if let corrector = corrector(terms: terms, matches: matches) {
            let corrected = try correct(corrector)
            if corrected.hasCorrections {
                let (more, correctedMatches) = try gather(scan: { try scan(corrected, $0, $1) }, id: id)
                gathered.addCorrected(corrected, candidates: more, matches: correctedMatches)
            }
        }
        while let broader = broadened(gathered.matched, matches: gathered.matches) {
            let (more, broaderMatches) = try gather(scan: { try scan(broader, $0, $1) }, id: id)
            gathered.addBroadened(broader, candidates: more, matches: broaderMatches)
        }
        return gathered
    }

    /// What looks for corrections of `terms` when they matched fewer than ``fewMatches`` items (`matches`), and some
    /// word may hold a typo.
    package func corrector(terms: SearchTerms, matches: Int) -> TypoCorrector? {
        guard matches < Self.fewMatches else { return nil }
        let corrector = TypoCorrector(terms: terms, tolerance: query.typos)
        return corrector.lookups.isEmpty ? nil : corrector
    }

    /// `terms` without their last word, when they matched nothing (`matches`), more than one word is left, and fewer
    /// than ``maxWordsDropped`` of the typed words were dropped: every hit matches every word that any item matches,
    /// so results narrow as words are typed, and a search never ends empty for one word too many.
    package func broadened(_ terms: SearchTerms, matches: Int) -> SearchTerms? {
        guard matches == 0, terms.words.count > 1, typedWords - terms.words.count < Self.maxWordsDropped else { return nil }
        return terms.droppingLastWord()
    }

    /// The page of `candidates` (those `gathered` found, as stored), best first: fewer typos (none for those that matched the words as typed; a synonym used counts as one), then a title that is
    /// exactly the typed words, then more of the typed sequences held (`3.4.0`), then better fields holding the words
    /// (a title over a description), then more words held whole (not only
    /// as a prefix), then a higher score (times the candidate's lift in `lifts`, ``Popularity``), then priority order
    /// (lower id first); with their scores.
    /// With ``SearchDistinct/page``, a page's best candidate stands for it, followed by its next best ones (up to
    /// ``sectionsPerPage``), which ``SearchResults/nestingSections()`` puts under it; the page counts once.
    package func page<Row>(
        of candidates: [Candidate], gathered: GatheredCandidates<Row>, lifts: [Int64: Double] = [:]
    ) -> [(id: Int64, score: Double)] {
        let ranked = ranked(candidates, gathered: gathered, lifts: lifts).sorted(by: Ranked.isBetter)
        guard query.distinct == .page else { return ranked.dropFirst(query.offset).prefix(query.limit).map { ($0.id, $0.score) } }
        let pages = Dictionary(candidates.map { ($0.id, $0.page) }, uniquingKeysWith: { first, _ in first })
        var groupOfPage: [String: Int] = [:]
        var groups: [[Ranked]] = []
        for entry in ranked {
            let page = pages[entry.id] ?? ""
            if let group = groupOfPage[page] {
                if groups[group].count <= Self.sectionsPerPage { groups[group].append(entry) }
            } else {
                groupOfPage[page] = groups.count
                groups.append([entry])
            }
        }
        return groups.dropFirst(query.offset).prefix(query.limit).flatMap { $0.map { ($0.id, $0.score) } }
    }

    /// `candidates` scored, with what the order of ``page(of:gathered:lifts:)`` compares.
    func ranked<Row>(_ candidates: [Candidate], gathered: GatheredCandidates<Row>, lifts: [Int64: Double]) -> [Ranked] {
        candidates.map { candidate -> Ranked in
            let result = scorer.score(candidate)
            return Ranked(
                id: candidate.id, score: result.score * (lifts[candidate.id] ?? 1),
                typos: (gathered.asTyped.contains(candidate.id) ? 0 : result.typos) + result.synonyms, sequences: result.sequences,
                titleIsExact: result.titleIsExact, fields: result.fields, wholeWords: result.wholeWords
            )
        }
    }

    /// A scored candidate.
    struct Ranked {
        var id: Int64
        var score: Double
        var typos: Int
        var sequences: Int
        var titleIsExact: Bool
        var fields: Double
        var wholeWords: Int

        static func isBetter(_ left: Ranked, than right: Ranked) -> Bool {
            if left.typos != right.typos { return left.typos < right.typos }
            if left.titleIsExact != right.titleIsExact { return left.titleIsExact }
            if left.sequences != right.sequences { return left.sequences > right.sequences }
            if left.fields != right.fields { return left.fields > right.fields }
            if left.wholeWords != right.wholeWords { return left.wholeWords > right.wholeWords }
            if left.score != right.score { return left.score > right.score }
            return left.id < right.id
        }
    }

    /// `total` and `totalIsExact` for a first scan that found `matches` (it asks for `countLimit + 1`); with
    /// ``SearchDistinct/page``, the pages of the `candidates` (every match when the count is exact, a lower bound else).
    package func total(matches: Int, candidates: [Candidate]) -> (total: Int, isExact: Bool) {
        let isExact = matches <= countLimit
        guard query.distinct == .page else { return (min(matches, countLimit), isExact) }
        return (Set(candidates.map(\.page)).count, isExact)
    }
}
