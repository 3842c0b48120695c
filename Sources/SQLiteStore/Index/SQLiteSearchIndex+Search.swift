import Foundation
import GRDB
import GRDBSQLite
import PluginAPI
public import Indexing

/// Search without scoring every match: FTS5 walks matches in row-identifier order, which is
/// ``ItemPriority`` order, so each query below stops after a bounded number of rows.
///
/// 1. One scan counts the matches up to ``CandidateRanking/countedMatches`` (or the page's end; past that, `total` is a lower
///    bound) and takes the first `k` as candidates, highest ranking hint first, where `k` is
///    ``CandidateRanking/candidatesPerScope`` or the page's end.
/// 2. When there are more than `k` matches, the first `k` items matching in their title, display name and
///    keywords and author names join the candidates, then, if there were `k` of those, the first `k` matching in
///    their title and display name: the best fields are never crowded out by matches in the others. Each scan reads
///    the postings of its scope's fields (``SearchPostings``), so it stops after `k` matches whatever the other fields
///    hold; when the postings do not hold the search's commit, FTS5 filters on the scope's columns
///    (``FullTextTable``), walking the matches of every field until `k` are in the scope.
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
/// every field when they hold the search's commit, else from FTS5.
///
/// Results are kept in a ``SearchResultCache`` and answered again while they stay exact.
extension SQLiteSearchIndex {
    public func search(_ query: SearchQuery) async throws -> SearchResults {
        let typed = query.terms
        guard !typed.words.isEmpty else { return SearchResults(total: 0, totalIsExact: true, hits: []) }
        let now = clock.now()
        var conditions = ["item.expirationDate > ?", PurgedDomains.liveCondition()]
        var arguments: StatementArguments = [now.timeIntervalSince1970]
        if let domain = query.domain {
            let range = DomainRange(domain: domain)
            conditions.append(DomainRange.condition(column: "item.domainIdentifier"))
            arguments += range.arguments
        }
        if let contentType = query.contentType {
            conditions.append("item.contentType = ?")
            arguments += [contentType]
        }
        let filter = conditions.joined(separator: " AND ")
        let filterArguments = arguments
        let ranking = CandidateRanking(query: query, terms: typed)
        let cacheKey = SearchResultCache.Key(query: query, terms: typed, now: now)
        let cache = resultCache
        let generation = cache.generation
        let postings = postings
        // Rows are shared between searches only as a search without a domain or type filter reads them.
        let sharedRows = query.domain == nil && query.contentType == nil ? candidateRows : nil
        let liveFilter = PurgedDomains.liveCondition()
        let nowSeconds = now.timeIntervalSince1970

        return try await database.read { db in
            let commitNumber = try Self.lastCommitNumber(db)
            if let cached = cache.results(for: cacheKey, commitNumber: commitNumber, now: now) { return cached }
            /// The earliest expiration among the rows read: the results hold until then (or the next commit).
            var validUntil = Date.distantFuture
            /// The first `limit` matches of `terms` in `scope`, in priority order, with the fields they are scored on:
            /// from the postings when they hold this read's commit, else from `item_fts` filtered by the scope's columns. Each row is read
            /// once, for the filter and the scoring alike.
            func scan(_ terms: SearchTerms, _ scope: CandidateRanking.Scope, limit: Int) throws -> [CandidateRanking.Candidate] {
                if scope != .all || postings.keepsAllFields, try postingsHoldThisCommit(), let found = try scanPostings(terms.match!, scope, limit: limit) { return found }
                let table = FullTextTable.items.name
                let statement = try db.cachedStatement(sql: """
                    SELECT item.expirationDate, \(Self.candidateColumns)
                    FROM \(table) JOIN item ON item.id = \(table).rowid
                    WHERE \(table) MATCH ? AND \(filter) ORDER BY \(table).rowid LIMIT ?
                    """)
                let rows = try Row.fetchCursor(statement, arguments: [FullTextTable.matchExpression(terms, in: scope)!] + filterArguments + [limit])
                var found: [CandidateRanking.Candidate] = []
                while let row = try rows.next() {
                    validUntil = min(validUntil, Date(timeIntervalSince1970: row[0]))
                    found.append(Self.candidate(row, statement))
                }
                return found
            }
            /// Whether the postings hold this read's commit, once caught up to it when few rows are new.
            var postingsChecked: Bool?
            func postingsHoldThisCommit() throws -> Bool {
                if let postingsChecked { return postingsChecked }
                let held = try postings.catchUp(db, to: commitNumber, maxRows: postings.caughtUpBySearch, waiting: false) == .holding
                postingsChecked = held
                return held
            }
            /// The rows this search read from the postings' members, by id, with their expiration: `nil` for one the filter
            /// left out. A later scan (another scope, another level) takes them from here instead of reading them again.
            /// At most ``rowsRememberedPerSearch``: a narrow filter walking a common word's members reads past them
            /// without keeping them.
            var rowsRead: [Int64: CandidateRowCache.Entry?] = [:]
            /// Hands `body` the members of `match` in `scope` in priority order, batch after batch, with those to check on
            /// their text, while it asks for more and members are left: the first batch `first` long, each next twice as
            /// long up to `most` (a filter that passes few rows, a small domain, reads bigger batches). False when the
            /// postings moved on.
            func eachPostingsBatch(
                _ scope: CandidateRanking.Scope, _ match: WordMatch, first: Int, most: Int,
                _ body: (_ ids: [Int64], _ toCheck: Set<Int64>) throws -> Bool
            ) throws -> Bool {
                var after: Int64?
                var batch = first
                while true {
                    guard let (ids, toCheck) = postings.firstMembers(scope, matching: match, at: commitNumber, after: after, limit: batch) else {
                        return false
                    }
                    guard try body(ids, toCheck), ids.count == batch, let last = ids.last else { return true }
                    after = last
                    batch = min(batch * 2, most)
                }
            }
            /// ``scan(_:_:limit:)`` from the postings: their members in priority order, batch after batch, each row read
            /// with the filter (once per search, ``rowsRead``; without a domain or type filter, from the rows recent
            /// searches read when they hold it, ``CandidateRowCache``), and checked on its text when it was rewritten;
            /// `nil` when the postings moved on.
            func scanPostings(_ match: WordMatch, _ scope: CandidateRanking.Scope, limit: Int) throws -> [CandidateRanking.Candidate]? {
                var found: [CandidateRanking.Candidate] = []
                let held = try eachPostingsBatch(scope, match, first: limit, most: 8_192) { ids, toCheck in
                    let unread = ids.filter { rowsRead[$0] == nil }
                    // A row about to expire is read from the file: the expiry sweep deletes rows without a commit, and
                    // its clock may be ahead of this search's.
                    let shared = sharedRows?.entries(unread, at: commitNumber, expiringAfter: nowSeconds + CandidateRowCache.expiringSoon) ?? [:]
                    // Read for the shared rows, a row is filtered on its domain's liveness alone (the expiration below).
                    let statement = try db.cachedStatement(sql: """
                        SELECT item.expirationDate, \(Self.candidateColumns) FROM item
                        WHERE item.id IN (SELECT value FROM json_each(?)) AND \(sharedRows == nil ? filter : liveFilter) ORDER BY item.id
                        """)
                    let rows = try Row.fetchCursor(
                        statement,
                        arguments: [RowIDList.json(shared.isEmpty ? unread : unread.filter { shared[$0] == nil })]
                            + (sharedRows == nil ? filterArguments : [])
                    )
                    func readNext() throws -> CandidateRowCache.Entry? {
                        try rows.next().map { (Self.candidate($0, statement), $0[0]) }
                    }
                    /// The next row the filter let through, of the unread ids (in id order).
                    var next = try readNext()
                    var newlyRead: [Int64: CandidateRowCache.Entry?] = [:]
                    defer { sharedRows?.store(newlyRead, at: commitNumber) }
                    for id in ids {
                        guard found.count < limit else { break }
                        let row: CandidateRowCache.Entry?
                        if let remembered = rowsRead[id] {
                            row = remembered
                        } else {
                            let stored: CandidateRowCache.Entry?
                            if let entry = shared[id] {
                                stored = entry
                            } else if let read = next, read.candidate.id == id {
                                stored = read
                                next = try readNext()
                                if sharedRows != nil { newlyRead[id] = .some(read) }
                            } else {
                                stored = nil
                                if sharedRows != nil { newlyRead[id] = .some(nil) }
                            }
                            row = stored.flatMap { $0.expiration > nowSeconds ? $0 : nil }
                            if rowsRead.count < Self.rowsRememberedPerSearch { rowsRead[id] = .some(row) }
                        }
                        guard let (candidate, expiration) = row else { continue }
                        if toCheck.contains(id), try !Self.row(id, holds: match, in: scope.columns, db) { continue }
                        validUntil = min(validUntil, Date(timeIntervalSince1970: expiration))
                        found.append(candidate)
                    }
                    return found.count < limit
                }
                return held ? found : nil
            }
            /// The matches of `terms` in priority order, up to ``WalkedMatch/rowsRead``: from every field's postings when
            /// they hold this read's commit, else from FTS5.
            func walk(_ terms: SearchTerms) throws -> [WalkedMatch] {
                if postings.keepsAllFields, try postingsHoldThisCommit(), let walked = try walkPostings(terms.match!) { return walked }
                let table = FullTextTable.items.name
                let rows = try Row.fetchCursor(
                    db.cachedStatement(sql: """
                        SELECT item.expirationDate, \(Self.walkedColumns) FROM \(table) JOIN item ON item.id = \(table).rowid
                        WHERE \(table) MATCH ? AND \(filter) ORDER BY \(table).rowid LIMIT ?
                        """),
                    arguments: [terms.matchExpression!] + filterArguments + [WalkedMatch.rowsRead]
                )
                var walked: [WalkedMatch] = []
                while let row = try rows.next() {
                    validUntil = min(validUntil, Date(timeIntervalSince1970: row[0]))
                    walked.append(Self.walked(row))
                }
                return walked
            }
            /// ``walk(_:)`` from the postings: their members in priority order, batch after batch, each row read with
            /// the filter, and checked on its text when it was rewritten; `nil` when the postings moved on.
            func walkPostings(_ match: WordMatch) throws -> [WalkedMatch]? {
                var walked: [WalkedMatch] = []
                let held = try eachPostingsBatch(.all, match, first: WalkedMatch.rowsRead, most: 65_536) { ids, toCheck in
                    let rows = try Row.fetchCursor(
                        db.cachedStatement(sql: """
                            SELECT item.expirationDate, \(Self.walkedColumns) FROM item WHERE item.id IN (SELECT value FROM json_each(?)) AND \(filter) ORDER BY item.id
                            """),
                        arguments: [RowIDList.json(ids)] + filterArguments
                    )
                    while walked.count < WalkedMatch.rowsRead, let row = try rows.next() {
                        let id: Int64 = row[1]
                        // A rewritten row is read again, alone, with its text: few are, and a walk reads thousands.
                        if toCheck.contains(id), try !Self.row(id, holds: match, in: CandidateRanking.Scope.all.columns, db) { continue }
                        validUntil = min(validUntil, Date(timeIntervalSince1970: row[0]))
                        walked.append(Self.walked(row))
                    }
                    return walked.count < WalkedMatch.rowsRead
                }
                return held ? walked : nil
            }
            let gathered = try ranking.gatherLevels(
                terms: typed, correct: { corrector in corrector.corrected(typed, vocabulary: try SearchTermTable.words(for: corrector.lookups, db)) },
                scan: { terms, scope, limit in try scan(terms, scope, limit: limit) }, id: \.id
            )
            let popularity = Popularity(query: query, now: now)
            let walked = WalkedMatch.isNeeded(by: query) ? try walk(gathered.matched) : []
            let page: [(id: Int64, score: Double)]
            let total: (total: Int, isExact: Bool)
            switch query.sort {
            case .relevance:
                let lifts = try ItemOpenTable.lifts(of: gathered.candidates.map(\.id), popularity: popularity, db)
                page = CandidateRanking(query: query, terms: gathered.terms).page(of: gathered.candidates, gathered: gathered, lifts: lifts)
                total = ranking.total(matches: gathered.matches, candidates: gathered.candidates)
            case .newest:
                let order = NewestOrder(walked: walked, offset: query.offset, limit: query.limit, distinct: query.distinct)
                let candidates = try Self.candidates(db, ids: order.toScore)
                let lifts = try ItemOpenTable.lifts(of: order.toScore, popularity: popularity, db)
                page = order.page(ranking: CandidateRanking(query: query, terms: gathered.terms), candidates: candidates, gathered: gathered, lifts: lifts)
                total = order.total
            }
            var results = SearchResults(total: total.total, totalIsExact: total.isExact, hits: try Self.hits(db, for: page)).highlighted(for: gathered.terms)
            if !query.facets.isEmpty { results = FacetCounter(facets: query.facets, counting: walked).applied(to: results) }
            cache.store(results, for: cacheKey, commitNumber: commitNumber, validUntil: validUntil, generation: generation)
            return results
        }
    }

    /// Rows a search keeps once read, for its later scans (a few hundred is the usual search's need).
    static let rowsRememberedPerSearch = 4_096

    /// The page an item belongs to (``SearchDistinct/page``).
    private static let pageColumn = "coalesce(item.relatedUniqueIdentifier, item.uniqueIdentifier)"

    /// The columns ``candidate(_:_:)`` reads, after one column of the caller's: the searchable fields in ``SearchColumn`` order
    /// from the third.
    private static let candidateColumns =
        "item.id, item.title, item.displayName, item.keywords, item.authorNames, item.contentDescription, item.rankingHint, \(pageColumn)"

    /// The candidate the current row of `statement` (`row`, of ``candidateColumns`` from its second column) holds: the
    /// fields' text is copied from SQLite into the candidate, without a string for each. The text is read as GRDB reads
    /// a string, up to its first NUL (items holding one are refused when written); it is not checked for UTF-8, which
    /// only a file written by other tools could lack: the scorer reads bad bytes as U+FFFD, as `String` does, but cuts
    /// a long field before (``RelevanceScore``), where a string would be cut after.
    private static func candidate(_ row: Row, _ statement: Statement) -> CandidateRanking.Candidate {
        let sqliteStatement = statement.sqliteStatement
        return CandidateRanking.Candidate(id: row[1], rankingHint: row[7], page: row[8]) { column in
            guard let text = sqlite3_column_text(sqliteStatement, CInt(2 + column.position)) else { return nil }
            return UnsafeBufferPointer(start: text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self)))
        }
    }

    /// Whether the text of row `id` in `columns`, read whole, satisfies `match` (``WordMatch/isSatisfied(byWordsOf:)``):
    /// what a row rewritten since the postings were built is checked with. Few are, so each is read alone.
    private static func row(_ id: Int64, holds match: WordMatch, in columns: [SearchColumn], _ db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT \(SearchColumn.allCases.map { "item.\($0.rawValue)" }.joined(separator: ", ")) FROM item WHERE id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return false }
        return match.isSatisfied(byWordsOf: columns.map { row[$0.position] })
    }

    /// The candidates of rows `ids` (those that exist), whatever the filter.
    private static func candidates(_ db: Database, ids: [Int64]) throws -> [CandidateRanking.Candidate] {
        let statement = try db.cachedStatement(sql: "SELECT NULL, \(candidateColumns) FROM item WHERE id IN (SELECT value FROM json_each(?))")
        let rows = try Row.fetchCursor(statement, arguments: [RowIDList.json(ids)])
        var candidates: [CandidateRanking.Candidate] = []
        while let row = try rows.next() { candidates.append(candidate(row, statement)) }
        return candidates
    }

    /// The columns ``walked(_:)`` reads, after one column of the caller's.
    private static let walkedColumns = "item.id, item.contentCreationDate, item.domainIdentifier, item.contentType, \(pageColumn)"

    /// The match a row of ``walkedColumns`` holds (from its second column).
    private static func walked(_ row: Row) -> WalkedMatch {
        WalkedMatch(id: row[1], created: row[2], domain: row[3], contentType: row[4], page: row[5])
    }

    /// The items of a page of hits (the statement is prepared once per connection).
    private static let hitsQuery =
        "SELECT \(ItemRows.itemColumns(withThumbnailData: false)), id FROM item WHERE id IN (SELECT value FROM json_each(?))"

    /// The hits for a ranked page of item identifiers and scores, in the same order.
    private static func hits(_ db: Database, for page: [(id: Int64, score: Double)]) throws -> [SearchHit] {
        // Each item is decoded from the statement's row as it is stepped (a fetched array would copy every value first).
        let rows = try Row.fetchCursor(db.cachedStatement(sql: hitsQuery), arguments: [RowIDList.json(page.map(\.id))])
        var itemsByID: [Int64: SearchableItem] = [:]
        while let row = try rows.next() { itemsByID[row[ItemRows.itemColumnCount]] = ItemRows.item(from: row) }
        return page.compactMap { id, score in itemsByID[id].map { SearchHit($0, score: score) } }
    }
}
