import Foundation
import GRDB
import Indexing

/// One search, inside one read of the file: it gathers candidates, scores and orders them, cuts the page and
/// highlights it (``run()``). The strategy is explained where the index's `search` begins
/// (`SQLiteSearchIndex+Search.swift`); where each step reads its rows from is in `SQLiteSearch+Scans.swift`.
///
/// It lives as long as the read, on the read's thread, and remembers what the steps share: whether the postings
/// hold this read's commit, the rows already read, and until when the results hold.
final class SQLiteSearch {
    let db: Database
    let query: SearchQuery
    /// The words as typed (``SearchQuery/terms``).
    let typed: SearchTerms
    /// Which rows the search may return.
    let filter: SearchRowFilter
    /// The commit this read sees.
    let commitNumber: Int64
    /// The words of the best fields in memory, when they hold this commit (``postingsHoldThisCommit()``).
    let postings: SearchPostings
    /// Rows recent searches read, when this search's filter lets it share them (``SearchRowFilter/sharesRows``).
    let sharedRows: CandidateRowCache?
    /// The search's clock reading, in seconds since 1970: rows expiring by then are left out.
    let nowSeconds: Double
    /// The earliest expiration among the rows read: the results hold until then (or the next commit).
    private(set) var validUntil = Date.distantFuture
    /// Whether a scan or walk read every row the filter lets through (the postings did not answer it).
    var scannedRows = false
    /// Whether the search may be run again in a newer read when the postings moved past this one's commit (another
    /// search or the keeper brought them to a later one): it throws ``PostingsMovedOn`` then; else it scans rows.
    let mayReadAgain: Bool
    /// Whether the postings hold this read's commit, once asked (``postingsHoldThisCommit()``).
    private var postingsChecked: Bool?
    /// The rows read from the postings' members, by id: `nil` for one the filter left out. A later scan (another
    /// scope, another level) takes them from here. At most ``rowsRememberedPerSearch``: a narrow filter walking a
    /// common word's members reads past them without keeping them.
    var rowsRead: [Int64: FoundRow?] = [:]

    /// A row the search may return: its candidate, and its expiration (seconds since 1970).
    typealias FoundRow = (candidate: CandidateRanking.Candidate, expiration: Double)

    /// Rows a search keeps once read, for its later scans (a few hundred is the usual search's need).
    static let rowsRememberedPerSearch = 4_096

    init(
        _ query: SearchQuery, terms typed: SearchTerms, filter: SearchRowFilter, in db: Database, commitNumber: Int64, now: Date,
        postings: SearchPostings, sharedRows: CandidateRowCache, mayReadAgain: Bool
    ) {
        self.db = db
        self.query = query
        self.typed = typed
        self.filter = filter
        self.commitNumber = commitNumber
        self.postings = postings
        self.sharedRows = filter.sharesRows ? sharedRows : nil
        self.mayReadAgain = mayReadAgain
        nowSeconds = now.timeIntervalSince1970
    }

    /// The search, step by step.
    func run() throws -> SearchResults {
        let gathered = try gatherCandidates()
        let walked = WalkedMatch.isNeeded(by: query) ? try walk(gathered.matched) : []
        let (page, total) = try order(gathered, walked: walked)
        var results = SearchResults(total: total.total, totalIsExact: total.isExact, hits: try SearchRows.hits(db, for: page))
            .presented(for: query, terms: gathered.terms)
        if !query.facets.isEmpty { results = FacetCounter(facets: query.facets, counting: walked).applied(to: results) }
        return results
    }

    /// The candidates of every level the query needs: the words as typed, their corrections, the words without the
    /// last ones (``CandidateRanking/gatherLevels(terms:correct:scan:id:)``).
    private func gatherCandidates() throws -> GatheredCandidates<CandidateRanking.Candidate> {
        try CandidateRanking(query: query, terms: typed).gatherLevels(
            terms: typed,
            correct: { corrector in corrector.corrected(typed, vocabulary: try SearchTermTable.words(for: corrector.lookups, db)) },
            scan: { terms, scope, limit in try scan(terms, scope, limit: limit) },
            id: \.id
        )
    }

    /// The page, ranked, and the total: by relevance, the candidates scored; newest first, the walked matches in date
    /// order with only those that can reach the page scored (``NewestOrder``).
    private func order(
        _ gathered: GatheredCandidates<CandidateRanking.Candidate>, walked: [WalkedMatch]
    ) throws -> (page: [(id: Int64, score: Double)], total: (total: Int, isExact: Bool)) {
        let popularity = Popularity(query: query, now: Date(timeIntervalSince1970: nowSeconds))
        let ranking = CandidateRanking(query: query, terms: gathered.terms)
        switch query.sort {
        case .relevance:
            let lifts = try ItemOpenTable.lifts(of: gathered.candidates.map(\.id), popularity: popularity, db)
            return (
                ranking.page(of: gathered.candidates, gathered: gathered, lifts: lifts),
                ranking.total(matches: gathered.matches, candidates: gathered.candidates)
            )
        case .newest:
            let order = NewestOrder(walked: walked, offset: query.offset, limit: query.limit, distinct: query.distinct)
            let candidates = try SearchRows.candidates(db, ids: order.toScore)
            let lifts = try ItemOpenTable.lifts(of: order.toScore, popularity: popularity, db)
            return (order.page(ranking: ranking, candidates: candidates, gathered: gathered, lifts: lifts), order.total)
        }
    }

    /// The postings moved off this read's commit as the search ran: it is run again in a newer read.
    struct PostingsMovedOn: Error {}

    /// Whether the postings hold this read's commit, once caught up to it: the search reads the rows written since
    /// theirs itself, step after step as the keeper does (waiting while another thread changes them), unless one
    /// commit wrote more than a keeper takes whole (``SearchPostings/CatchUp/tooManyRows``: the keeper builds them
    /// again, and searches scan rows meanwhile).
    func postingsHoldThisCommit() throws -> Bool {
        if let postingsChecked { return postingsChecked }
        var caughtUp = SearchPostings.CatchUp.stepped
        while caughtUp == .stepped {
            caughtUp = try postings.catchUp(db, to: commitNumber, maxRows: SearchPostings.caughtUpByKeeper, stepping: true)
        }
        if caughtUp == .ahead, mayReadAgain { throw PostingsMovedOn() }
        postingsChecked = caughtUp == .holding
        return caughtUp == .holding
    }

    /// Notes that a row read expires at `expiration` (seconds since 1970).
    func noteExpiration(_ expiration: Double) {
        validUntil = min(validUntil, Date(timeIntervalSince1970: expiration))
    }
}
