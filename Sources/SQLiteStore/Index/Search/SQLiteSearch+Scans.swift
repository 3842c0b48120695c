import GRDB
import Indexing
import PluginAPI

/// Where a search's matches come from: the postings' members in priority order when they hold the read's commit
/// (each row then read by id, with the filter), else every row the filter lets through, in id order, each checked on
/// its text (``scanRows(_:_:limit:)``, when there are no postings). Both give the same rows in the same order; the
/// differential tests hold them to it.
extension SQLiteSearch {
    /// The first `limit` matches of `terms` in `scope`, in priority order, with the fields they are scored on.
    func scan(_ terms: SearchTerms, _ scope: CandidateRanking.Scope, limit: Int) throws -> [CandidateRanking.Candidate] {
        if scope != .all || postings.keepsAllFields, try postingsHoldThisCommit(),
            let found = try scanPostings(terms.match!, scope, limit: limit)
        {
            return found
        }
        return try scanRows(terms.match!, scope, limit: limit)
    }

    /// The matches of `terms` in priority order, up to ``WalkedMatch/rowsRead``, for facets and the newest-first order.
    func walk(_ terms: SearchTerms) throws -> [WalkedMatch] {
        if postings.keepsAllFields, try postingsHoldThisCommit(), let walked = try walkPostings(terms.match!) { return walked }
        return try walkRows(terms.match!)
    }

    /// ``scan(_:_:limit:)`` without postings: the rows the filter lets through, in id order, each one's text in the
    /// scope's fields read and checked (``WordMatch/isSatisfied(byWordsOf:)``, as a row rewritten since the postings
    /// were built is), until `limit` hold the match. Right whatever the postings hold, and slow: a word few items hold
    /// reads every row (BENCHMARKS.md).
    private func scanRows(_ match: WordMatch, _ scope: CandidateRanking.Scope, limit: Int) throws -> [CandidateRanking.Candidate] {
        scannedRows = true
        let statement = try db.cachedStatement(
            sql: "SELECT item.expirationDate, \(SearchRows.candidateColumns) FROM item WHERE \(filter.sql) ORDER BY item.id"
        )
        let rows = try Row.fetchCursor(statement, arguments: filter.arguments)
        var found: [CandidateRanking.Candidate] = []
        while found.count < limit, let row = try rows.next() {
            guard match.isSatisfied(byWordsOf: scope.columns.map { row[2 + $0.position] }) else { continue }
            noteExpiration(row[0])
            found.append(SearchRows.candidate(row, statement))
        }
        return found
    }

    /// ``walk(_:)`` without postings: as ``scanRows(_:_:limit:)`` reads them, every field checked.
    private func walkRows(_ match: WordMatch) throws -> [WalkedMatch] {
        scannedRows = true
        let fields = SearchColumn.allCases
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT item.expirationDate, \(SearchRows.walkedColumns), \(fields.map(\.selected).joined(separator: ", "))
                FROM item WHERE \(filter.sql) ORDER BY item.id
                """),
            arguments: filter.arguments
        )
        let firstField = 1 + SearchRows.walkedColumnCount
        var walked: [WalkedMatch] = []
        while walked.count < WalkedMatch.rowsRead, let row = try rows.next() {
            guard match.isSatisfied(byWordsOf: fields.map { row[firstField + $0.position] }) else { continue }
            noteExpiration(row[0])
            walked.append(SearchRows.walked(row))
        }
        return walked
    }

    /// ``scan(_:_:limit:)`` from the postings: each member's row read with the filter (``CandidateBatch``), and checked
    /// on its text when it was rewritten since the postings were built; `nil` when the postings were dropped.
    private func scanPostings(_ match: WordMatch, _ scope: CandidateRanking.Scope, limit: Int) throws -> [CandidateRanking.Candidate]? {
        var found: [CandidateRanking.Candidate] = []
        let held = try eachPostingsBatch(scope, match, first: limit, most: 8_192) { members in
            var batch = try CandidateBatch(members, for: self)
            defer {
                batch.share(for: self)
                postings.noteCandidatesFromRecords(batch.fromRecords)
            }
            for id in members.ids {
                guard found.count < limit else { break }
                guard let (candidate, expiration) = try batch.row(id, for: self) else { continue }
                if members.toCheck.contains(id), try !SearchRows.row(id, holds: match, in: scope.columns, db) { continue }
                noteExpiration(expiration)
                found.append(candidate)
            }
            return found.count < limit
        }
        return held ? found : nil
    }

    /// ``walk(_:)`` from every field's postings: each batch's rows read with the filter, and checked on their text
    /// when they were rewritten; `nil` when the postings were dropped.
    private func walkPostings(_ match: WordMatch) throws -> [WalkedMatch]? {
        var walked: [WalkedMatch] = []
        let held = try eachPostingsBatch(.all, match, first: WalkedMatch.rowsRead, most: 65_536) { members in
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT item.expirationDate, \(SearchRows.walkedColumns) FROM item
                    WHERE item.id IN (SELECT value FROM json_each(?)) AND \(filter.sql) ORDER BY item.id
                    """),
                arguments: [RowIDList.json(members.ids)] + filter.arguments
            )
            while walked.count < WalkedMatch.rowsRead, let row = try rows.next() {
                let id: Int64 = row[1]
                // A rewritten row is read again, alone, with its text: few are, and a walk reads thousands.
                if members.toCheck.contains(id), try !SearchRows.row(id, holds: match, in: CandidateRanking.Scope.all.columns, db) { continue }
                noteExpiration(row[0])
                walked.append(SearchRows.walked(row))
            }
            return walked.count < WalkedMatch.rowsRead
        }
        return held ? walked : nil
    }

    /// Hands `body` the members of `match` in `scope` in priority order, batch after batch, with those to check on
    /// their text and the records, while it asks for more and members are left: the first batch `first` long, each
    /// next twice as long up to `most` (a filter that passes few rows, a small domain, reads bigger batches). False
    /// when the postings were dropped, or moved off this read's commit on its last try (else ``PostingsMovedOn``).
    private func eachPostingsBatch(
        _ scope: CandidateRanking.Scope, _ match: WordMatch, first: Int, most: Int, _ body: (SearchPostings.Members) throws -> Bool
    ) throws -> Bool {
        var after: Int64?
        var batch = first
        while true {
            guard let members = postings.firstMembers(scope, matching: match, at: commitNumber, after: after, limit: batch) else {
                if mayReadAgain, postings.holdAnotherCommit(than: commitNumber) { throw PostingsMovedOn() }
                return false
            }
            guard try body(members), members.ids.count == batch, let last = members.ids.last else { return true }
            after = last
            batch = min(batch * 2, most)
        }
    }
}

extension SQLiteSearch {
    /// Whether the search may return the row of `entry` (its audience, its versions): what a row read with the
    /// live-domain condition alone (a shared one) is checked on; a row read with the whole filter passes.
    func mayReturn(_ entry: CandidateRowCache.Entry) -> Bool {
        mayReturn(domain: entry.domain, access: entry.access, isCurrentVersion: entry.isCurrentVersion)
    }

    /// Whether the search may return a row of `domain`, with `access` as stored, and whose version is current or not.
    func mayReturn(domain: String, access: String?, isCurrentVersion: Bool) -> Bool {
        let audience = query.audience
        return audience.mayFind(storedAccess: access) && audience.mayFind(domain: domain)
            && (query.version != .current || isCurrentVersion)
            && (query.domain.map { DomainIdentifier.isWithin(domain, $0) } ?? true)
    }
}

/// The rows of one batch of postings members, each taken from where it is cheapest: read earlier in this search
/// (``SQLiteSearch/rowsRead``); recorded (``RecordedRows``); read by recent searches (``CandidateRowCache``); or
/// stepped from one statement over the rest, lazily, in id order, so a scan that has its candidates stops reading.
struct CandidateBatch {
    private var recorded: RecordedRows
    /// The rows recent searches read, of those this search had not.
    private let shared: [Int64: CandidateRowCache.Entry?]
    private let statement: Statement
    private let rows: RowCursor
    /// The next row the filter let through, of those read from the file (in id order).
    private var next: CandidateRowCache.Entry?
    /// What this batch read from the file, for the shared rows: `nil` for a row the filter left out.
    private(set) var newlyRead: [Int64: CandidateRowCache.Entry?] = [:]
    /// The candidates it took from the records.
    var fromRecords: Int { recorded.fromRecords }

    init(_ members: SearchPostings.Members, for search: SQLiteSearch) throws {
        var unread: [Int64] = []
        recorded = try RecordedRows(members, for: search, unrecorded: &unread)
        // A row about to expire is read from the file: the expiry sweep deletes rows without a commit, and its clock
        // may be ahead of this search's.
        shared = search.sharedRows?.entries(
            unread, at: search.commitNumber, expiringAfter: search.nowSeconds + CandidateRowCache.expiringSoon
        ) ?? [:]
        // Read for the shared rows, a row is filtered on its domain's liveness alone (the expiration is the search's).
        let condition = search.sharedRows == nil ? search.filter : .liveRows
        statement = try search.db.cachedStatement(sql: """
            SELECT item.expirationDate, \(SearchRows.candidateColumns), item.domainIdentifier, item.access, item.isCurrentVersion FROM item
            WHERE item.id IN (SELECT value FROM json_each(?)) AND \(condition.sql) ORDER BY item.id
            """)
        let toRead = shared.isEmpty ? unread : unread.filter { [shared] in shared[$0] == nil }
        rows = try Row.fetchCursor(statement, arguments: [RowIDList.json(toRead)] + condition.arguments)
        next = try Self.read(rows, statement)
    }

    /// Row `id` (a member of the batch, asked in order), its candidate and expiration, when the search may return it.
    mutating func row(_ id: Int64, for search: SQLiteSearch) throws -> SQLiteSearch.FoundRow? {
        if let remembered = search.rowsRead[id] { return remembered }
        let row = recorded.isNext(id) ? try recorded.row(id, for: search) : try readRow(id, for: search)
        if search.rowsRead.count < SQLiteSearch.rowsRememberedPerSearch { search.rowsRead[id] = .some(row) }
        return row
    }

    /// Keeps what the batch learned for the next searches.
    func share(for search: SQLiteSearch) {
        search.sharedRows?.store(newlyRead, at: search.commitNumber)
        recorded.share(for: search)
    }

    /// Row `id`, not recorded, from the shared rows or the file.
    private mutating func readRow(_ id: Int64, for search: SQLiteSearch) throws -> SQLiteSearch.FoundRow? {
        let stored: CandidateRowCache.Entry?
        if let entry = shared[id] {
            stored = entry
        } else if let read = next, read.candidate.id == id {
            stored = read
            next = try Self.read(rows, statement)
            if search.sharedRows != nil { newlyRead[id] = .some(read) }
        } else {
            stored = nil
            if search.sharedRows != nil { newlyRead[id] = .some(nil) }
        }
        return stored.flatMap { $0.expiration > search.nowSeconds && search.mayReturn($0) ? ($0.candidate, $0.expiration) : nil }
    }

    private static func read(_ rows: RowCursor, _ statement: Statement) throws -> CandidateRowCache.Entry? {
        try rows.next().map { (SearchRows.candidate($0, statement), $0[0], $0[9], $0[10], $0[11]) }
    }
}

/// The members of one batch that have a candidate record (``CandidateRecords``): each one taken from its record, with
/// what searches learned of its row at this commit (``RecordFacts``) and no read of SQLite; or else its id, expiration,
/// commit, domain, `access` and version read from SQLite (with the live-domain condition alone when the search's filter
/// allows it, the facts then learned for the next searches; else with the search's filter). A row written since its
/// record was made is read whole, alone.
struct RecordedRows {
    private let records: CandidateRecords?
    /// The recorded members not read earlier in this search, in order, their record numbers, and how many were asked.
    private let ids: [Int64]
    private let indexes: [Int]
    private var asked = 0
    /// Whether the search takes facts (``SearchRowFilter/sharesRows``).
    private let usesFacts: Bool
    private let known: RecordFacts.Known
    private let rows: RowCursor?
    private var next: Read?
    private var learned: [RecordFacts.Learned] = []
    /// Whether the search may return a row of the facts' domain and `access` number (their bits together).
    private var mayReturnByValues: [UInt32: Bool] = [:]
    private(set) var fromRecords = 0

    private typealias Read = (id: Int64, expiration: Double, commitNumber: Int64, domain: String, access: String?, isCurrentVersion: Bool)

    init(_ members: SearchPostings.Members, for search: SQLiteSearch, unrecorded: inout [Int64]) throws {
        var ids: [Int64] = [], indexes: [Int] = []
        for id in members.ids where search.rowsRead[id] == nil {
            if let index = members.records?.index(of: id) {
                ids.append(id)
                indexes.append(index)
            } else {
                unrecorded.append(id)
            }
        }
        (records, self.ids, self.indexes) = (members.records, ids, indexes)
        usesFacts = search.filter.sharesRows
        known = usesFacts && !indexes.isEmpty
            ? members.records!.facts.known(indexes, at: search.commitNumber, expiringAfter: search.nowSeconds + CandidateRowCache.expiringSoon)
            : RecordFacts.Known(facts: [RecordFacts.Fact?](repeating: nil, count: indexes.count), domains: [], accesses: [])
        let toRead = zip(ids, known.facts).compactMap { $1 == nil ? $0 : nil }
        let condition = usesFacts ? .liveRows : search.filter
        rows = toRead.isEmpty ? nil : try Row.fetchCursor(
            search.db.cachedStatement(sql: """
                SELECT item.id, item.expirationDate, item.commitNumber, item.domainIdentifier, item.access, item.isCurrentVersion FROM item
                WHERE item.id IN (SELECT value FROM json_each(?)) AND \(condition.sql) ORDER BY item.id
                """),
            arguments: [RowIDList.json(toRead)] + condition.arguments
        )
        next = try Self.read(rows)
    }

    /// Whether `id` is the next recorded member.
    func isNext(_ id: Int64) -> Bool { asked < ids.count && ids[asked] == id }

    /// The next recorded member, `id`, when the search may return it.
    mutating func row(_ id: Int64, for search: SQLiteSearch) throws -> SQLiteSearch.FoundRow? {
        let (index, fact) = (indexes[asked], known.facts[asked])
        asked += 1
        if let fact {
            guard fact.expiration != 0, mayReturn(fact, for: search), let candidate = records?.candidate(at: index) else { return nil }
            fromRecords += 1
            return (candidate, Double(fact.expiration))
        }
        guard let read = next, read.id == id else {
            if usesFacts { learned.append(.init(record: index, row: nil)) }
            return nil
        }
        next = try Self.read(rows)
        guard read.commitNumber == records?.commitNumber(at: index), let candidate = records?.candidate(at: index) else {
            return try returnable(read, for: search) ? Self.rewritten(read, for: search).map { ($0, read.expiration) } : nil
        }
        if usesFacts { learned.append(.init(record: index, row: (read.expiration, read.domain, read.access, read.isCurrentVersion))) }
        guard returnable(read, for: search) else { return nil }
        fromRecords += 1
        return (candidate, read.expiration)
    }

    /// Keeps the facts learned for the next searches.
    func share(for search: SQLiteSearch) {
        records?.facts.learn(learned, at: search.commitNumber)
    }

    private func returnable(_ read: Read, for search: SQLiteSearch) -> Bool {
        !usesFacts || read.expiration > search.nowSeconds
            && search.mayReturn(domain: read.domain, access: read.access, isCurrentVersion: read.isCurrentVersion)
    }

    private mutating func mayReturn(_ fact: RecordFacts.Fact, for search: SQLiteSearch) -> Bool {
        let key = UInt32(fact.domain) << 16 | UInt32(fact.accessAndCurrent)
        if let may = mayReturnByValues[key] { return may }
        let may = search.mayReturn(
            domain: known.domain(of: fact), access: known.access(of: fact),
            isCurrentVersion: fact.accessAndCurrent & RecordFacts.currentVersionBit != 0
        )
        mayReturnByValues[key] = may
        return may
    }

    /// The candidate of a row rewritten since its record was made: from the rows recent searches read, else read
    /// alone and kept for the next searches (a row rewritten often, near the top of the order, is met by most).
    private static func rewritten(_ read: Read, for search: SQLiteSearch) throws -> CandidateRanking.Candidate? {
        let expiringAfter = search.nowSeconds + CandidateRowCache.expiringSoon
        if let shared = search.sharedRows?.entries([read.id], at: search.commitNumber, expiringAfter: expiringAfter)[read.id] {
            return shared?.candidate
        }
        guard let candidate = try SearchRows.candidates(search.db, ids: [read.id]).first else { return nil }
        // Shared rows are read with the live-domain condition alone, as `read` was (``SearchRowFilter/sharesRows``).
        search.sharedRows?.store([read.id: (candidate, read.expiration, read.domain, read.access, read.isCurrentVersion)], at: search.commitNumber)
        return candidate
    }

    private static func read(_ rows: RowCursor?) throws -> Read? {
        try rows?.next().map { ($0[0], $0[1], $0[2], $0[3], $0[4], $0[5]) }
    }
}
