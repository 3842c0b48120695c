import Foundation
import FuzzSupport
@testable import Indexing
import Logging
import PluginAPI
import ProcessSupport
@testable import SQLiteStore
import Testing

/// The search postings (``SearchPostings``) held to a scan of the rows as their oracle: two indexes open the same
/// file, one keeps postings, the other never does (its searches read every row and check its text), and every search must give both the same hits in the same order with the same
/// total, through rewrites that drop words, deletions, items written by the other "process", and commits too big for
/// a search to catch up.
@Suite("Search postings against a scan of the rows", .timeLimit(.minutes(5)))
struct SearchPostingsTests {
    /// The words items are made of: shared prefixes (`ca`, `cam`, `zé`), accents folded away, and scripts the tokenizer
    /// splits by character class.
    static let vocabulary = [
        "cat", "camel", "camembert", "cambridge", "car", "carton", "zébu", "zèbre", "zenith", "zeta", "éclair", "eclat",
        "straße", "strasse", "naïve", "日本語", "ab", "a", "b", "résumé", "resume", "x1", "x10", "x100", "ǅungla",
    ]

    /// Two indexes on one file: `keeping` with postings built, `plain` without, and the clock both read.
    struct Pair {
        let directory: TemporaryDirectory
        let clock: ManualClock
        let keeping: SQLiteSearchIndex
        let plain: SQLiteSearchIndex

        init(maxWords: Int = SQLiteSearchIndex.defaultPostingsMaxWords, allFields: Bool = false, keepersLog: LogRecorder? = nil) throws {
            directory = try TemporaryDirectory()
            clock = ManualClock()
            let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
            keeping = try SQLiteSearchIndex(
                path: directory.path("index.sqlite"), clock: clock, searchCacheEntries: 0, postingsMaxWords: maxWords, postings: allFields ? .all : .best, logger: keepersLog?.logger() ?? quiet
            )
            plain = try SQLiteSearchIndex(path: directory.path("index.sqlite"), clock: clock, searchCacheEntries: 0, logger: quiet)
        }

        /// Fails unless both indexes answer `query` alike; returns how many batches the postings answered for it.
        @discardableResult
        func expectSameResults(_ query: SearchQuery, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
            let before = keeping.postings.batchesAnswered
            let kept = try await keeping.search(query), fullText = try await plain.search(query)
            #expect(kept.hits.map(\.uniqueIdentifier) == fullText.hits.map(\.uniqueIdentifier), "\(query.text)", sourceLocation: sourceLocation)
            #expect(kept.hits.map(\.score) == fullText.hits.map(\.score), "\(query.text): the same scores, not only the same order", sourceLocation: sourceLocation)
            #expect(kept.total == fullText.total && kept.totalIsExact == fullText.totalIsExact, "\(query.text)", sourceLocation: sourceLocation)
            #expect(kept.facets == fullText.facets && kept.facetsAreExact == fullText.facetsAreExact, "\(query.text)", sourceLocation: sourceLocation)
            return keeping.postings.batchesAnswered - before
        }
    }

    static func randomText(_ random: inout SeededGenerator, words: ClosedRange<Int>) -> String {
        (0..<Int.random(in: words, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
    }

    /// A batch writing a random item for each identifier `i<n>` of `ids`.
    static func randomItems(_ ids: Range<Int>, _ random: inout SeededGenerator) -> IndexBatch {
        IndexBatch(operations: [.upsert(ids.map { randomItem("i\($0)", &random) })])
    }

    static func randomItem(_ id: String, _ random: inout SeededGenerator) -> SearchableItem {
        var made = item(
            id, domain: ["com.test.a", "com.test.b", "com.test.a.deep"].randomElement(using: &random)!,
            title: Bool.random(using: &random) ? randomText(&random, words: 1...3) : nil, displayName: randomText(&random, words: 0...2),
            description: randomText(&random, words: 0...8), keywords: (0..<Int.random(in: 0...2, using: &random)).map { _ in vocabulary.randomElement(using: &random)! },
            rankingHint: [nil, 10, 50, 90].randomElement(using: &random)!
        )
        made.authorNames = Bool.random(using: &random) ? [randomText(&random, words: 1...2)] : []
        return made
    }

    /// Queries of one to three typed words, each a prefix (often short, so that more than a scope's candidates
    /// match and the best-field and name scans run), a whole word, or a typo; some in a domain, some with synonyms,
    /// some with facets or newest first (which walk the matches).
    static func randomQuery(_ random: inout SeededGenerator) throws -> SearchQuery {
        let words = (0..<Int.random(in: 1...3, using: &random)).map { _ -> String in
            let word = vocabulary.randomElement(using: &random)!
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return String(word.prefix(Int.random(in: 1...max(1, word.count), using: &random)))
            case 1: return word
            case 2: return String(word.prefix(1))
            default: return String(word.shuffled(using: &random))
            }
        }
        let synonyms = Bool.random(using: &random) ? Synonyms(groups: [["cat", "camel"], ["zebu", "car carton"]]) : .none
        return try SearchQuery(
            text: words.joined(separator: " "), domain: Int.random(in: 0..<5, using: &random) == 0 ? "com.test.a" : nil,
            limit: [5, 20, 120].randomElement(using: &random)!, facets: Bool.random(using: &random) ? [.domain, .type] : [],
            sort: Int.random(in: 0..<4, using: &random) == 0 ? .newest : .relevance, synonyms: synonyms
        )
    }

    @Test(arguments: [false, true])
    func searchesAnswerAsFullTextThroughRewritesDeletionsAndOtherWriters(allFields: Bool) async throws {
        let pair = try Pair(allFields: allFields)
        var random = SeededGenerator(seed: 2511)
        try await pair.keeping.commit(Self.randomItems(0..<700, &random))
        try await pair.keeping.buildSearchPostings()
        var answered = 0
        for round in 0..<4 {
            for _ in 0..<25 { answered += try await pair.expectSameResults(try Self.randomQuery(&random)) }
            // The other index writes, as another process would: rewrites (words dropped, ranking hints changed, so ids
            // taken again or moved), deletions, new items.
            let rewritten = (0..<120).map { _ in Self.randomItem("i\(Int.random(in: 0..<(700 + round * 20), using: &random))", &random) }
            let added = (0..<20).map { Self.randomItem("i\(700 + round * 20 + $0)", &random) }
            let deleted = (0..<30).map { _ in "i\(Int.random(in: 0..<700, using: &random))" }
            try await pair.plain.commit(IndexBatch(operations: [.upsert(rewritten + added), .deleteIdentifiers(deleted)]))
        }
        #expect(answered > 30, "the postings answered \(answered) batches: the scans of the best fields and names should read them")
    }

    @Test func aSearchCatchesUpTheCommitsSinceThePostingsItselfWithoutTheKeeper() async throws {
        let pair = try Pair(allFields: true)
        var random = SeededGenerator(seed: 77)
        try await pair.keeping.commit(Self.randomItems(0..<300, &random))
        try await pair.keeping.buildSearchPostings()
        let common = try SearchQuery(text: "c")
        #expect(try await pair.expectSameResults(common) > 0)
        let rowsBefore = pair.keeping.postings.rowsCaughtUpSinceBuild
        try await pair.plain.commit(Self.randomItems(300..<2_500, &random))
        #expect(try await pair.expectSameResults(common) > 0, "2,200 new rows in one commit are caught up by the search")
        #expect(pair.keeping.postings.rowsCaughtUpSinceBuild == rowsBefore + 2_200)
        #expect(pair.keeping.postings.searchesScanningRows == 0)
        for _ in 0..<25 { try await pair.expectSameResults(try Self.randomQuery(&random)) }
    }

    /// Another process commits while searches run: each search brings the postings to its own read's commit, or runs
    /// again in a newer read when another search moved them past it, and none reads every row.
    @Test func searchesBesideAStreamOfCommitsNeverScanRows() async throws {
        let pair = try Pair(allFields: true)
        var random = SeededGenerator(seed: 91)
        try await pair.keeping.commit(Self.randomItems(0..<400, &random))
        try await pair.keeping.buildSearchPostings()
        let batches = (0..<40).map { round in Self.randomItems(400 + round * 25..<425 + round * 25, &random) }
        let queries = try (0..<200).map { _ in try Self.randomQuery(&random) }
        try await withThrowingTaskGroup { group in
            group.addTask { for batch in batches { try await pair.plain.commit(batch) } }
            for slice in 0..<4 {
                group.addTask { for query in queries[slice * 50..<(slice + 1) * 50] { _ = try await pair.keeping.search(query) } }
            }
            try await group.waitForAll()
        }
        #expect(pair.keeping.postings.searchesScanningRows == 0)
        #expect(pair.keeping.postings.rowsCaughtUpSinceBuild == 1_000, "every row written, caught up once")
        for query in queries.prefix(30) { try await pair.expectSameResults(query) }
    }

    @Test func hostileQueriesAreAnsweredAsFullTextAnswersThem() async throws {
        let pair = try Pair(allFields: true)
        var random = SeededGenerator(seed: 5)
        try await pair.keeping.commit(Self.randomItems(0..<400, &random))
        try await pair.keeping.buildSearchPostings()
        var mutator = Mutator(seed: 6)
        for round in 0..<120 {
            var text = mutator.mutate(Self.randomText(&random, words: 1...3), maxMutations: 4)
            if round % 10 == 0 { text = String(repeating: Mutator.tokens.randomElement(using: &random)!, count: Int.random(in: 1...40, using: &random)) }
            guard let query = try? SearchQuery(text: text, limit: 30) else { continue }
            try await pair.expectSameResults(query)
        }
    }

    /// A common word whose matches are almost all outside the domain asked: the scans walk more of its members than
    /// a search keeps once read (``SQLiteSearch.rowsRememberedPerSearch``), and read past them.
    @Test func aNarrowFilterWalkingPastTheRowsASearchKeepsAnswersAsFullText() async throws {
        let pair = try Pair(allFields: true)
        let elsewhere = SQLiteSearch.rowsRememberedPerSearch * 2 + 1_000
        let crowd = (0..<elsewhere).map { item("c\($0)", domain: "com.test.b", title: "cat \($0)", description: "camel") }
        let few = (0..<30).map { item("a\($0)", domain: "com.test.a", title: $0 % 2 == 0 ? "cat" : "zebu", description: "camel cat") }
        try await pair.keeping.commit(IndexBatch(operations: [.upsert(crowd + few)]))
        try await pair.keeping.buildSearchPostings()
        for text in ["cat", "ca", "c", "camel cat", "catt", "cat zebu"] {
            #expect(try await pair.expectSameResults(try SearchQuery(text: text, domain: "com.test.a", limit: 20)) > 0, "\(text)")
        }
    }

    /// The candidate rows one search reads serve the next ones (``CandidateRowCache``) only while they are what a read
    /// would give: not once an item expired, not for a domain or type filter, not after another process's commit.
    @Test func rowsSharedBetweenSearchesAnswerAsFullTextThroughExpiryFiltersAndOtherWriters() async throws {
        let pair = try Pair(allFields: true)
        let soon = pair.clock.now().addingTimeInterval(60)
        let items = (0..<300).map { number in
            item(
                "i\(number)", domain: ["com.test.a", "com.test.b", "com.test.a.deep"][number % 3], title: "cat \(number % 7 == 0 ? "camel" : "zebu")",
                description: "carton", type: number % 2 == 0 ? "public.text" : "public.image", expires: number % 5 == 0 ? soon : nil
            )
        }
        try await pair.keeping.commit(IndexBatch(operations: [.upsert(items)]))
        try await pair.keeping.buildSearchPostings()
        let queries = try ["c", "ca", "cat", "cat z", "car"].flatMap { text in
            [
                try SearchQuery(text: text, limit: 20), try SearchQuery(text: text, domain: "com.test.a", limit: 20),
                try SearchQuery(text: text, contentType: "public.image", limit: 20),
            ]
        }
        for query in queries + queries { try await pair.expectSameResults(query) }
        pair.clock.advance(by: 120)
        for query in queries { try await pair.expectSameResults(query) }
        // Another process rewrites and deletes at one commit: the rows shared before it are not served after it.
        let rewritten = (0..<100).map { item("i\($0)", domain: "com.test.b", title: "camel", description: "zebu", rankingHint: 90) }
        try await pair.plain.commit(IndexBatch(operations: [.upsert(rewritten), .deleteIdentifiers((100..<150).map { "i\($0)" })]))
        for query in queries { try await pair.expectSameResults(query) }
    }

    /// The expiry sweep deletes rows without a commit, by its own clock, which may be ahead of a search's: a row about
    /// to expire is never taken from the rows searches share.
    @Test func aRowSweptByAClockAheadIsNotTakenFromTheSharedRows() async throws {
        let pair = try Pair(allFields: true)
        let soon = pair.clock.now().addingTimeInterval(30)
        let items = (0..<40).map { item("i\($0)", title: "cat \($0)", expires: $0 < 5 ? soon : nil) }
        try await pair.keeping.commit(IndexBatch(operations: [.upsert(items)]))
        try await pair.keeping.buildSearchPostings()
        let query = try SearchQuery(text: "cat", limit: 20)
        // Twice: the rows are shared from their second read.
        for _ in 0..<2 { try await pair.expectSameResults(query) }
        let aheadClock = ManualClock(pair.clock.now().addingTimeInterval(45))
        let sweeper = try SQLiteSearchIndex(
            path: pair.directory.path("index.sqlite"), clock: aheadClock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        #expect(try await sweeper.sweepExpired() == 5)
        try await pair.expectSameResults(query)
        #expect(try await pair.keeping.search(query).hits.count == 20)
    }

    /// What a search copy does with the index of a file it replaces: its postings go for good, and a build that was
    /// under way installs nothing.
    @Test func retiredPostingsAreNeverBuiltAgainAndSearchesStayRight() async throws {
        let pair = try Pair(allFields: true)
        var random = SeededGenerator(seed: 31)
        try await pair.keeping.commit(Self.randomItems(0..<200, &random))
        try await pair.keeping.buildSearchPostings()
        #expect(pair.keeping.searchStructureRows == 200)
        pair.keeping.retireSearchPostings()
        #expect(pair.keeping.searchStructureRows == 0)
        try await pair.keeping.refreshSearchPostings()
        _ = try? await pair.keeping.buildSearchPostings()
        #expect(pair.keeping.searchStructureRows == 0, "a build after the retirement installs nothing")
        for _ in 0..<20 { #expect(try await pair.expectSameResults(try Self.randomQuery(&random)) == 0) }
    }

    @Test func theKeeperBuildsAgainWhenStaleRowsPileUp() async throws {
        let pair = try Pair()
        var random = SeededGenerator(seed: 9)
        try await pair.keeping.commit(Self.randomItems(0..<200, &random))
        try await pair.keeping.refreshSearchPostings()
        #expect(!pair.keeping.postings.isDueALook)
        // More rows rewritten than built, and than the floor (1,000): the stale words would slow every scan.
        for _ in 0..<7 {
            try await pair.plain.commit(Self.randomItems(0..<200, &random))
            try await pair.keeping.refreshSearchPostings()
        }
        #expect(pair.keeping.postings.summary!.rows <= 200 + 1_200, "built again from the 200 rows, then caught up: not 200 + 7 × 200")
        for _ in 0..<20 { try await pair.expectSameResults(try Self.randomQuery(&random)) }
    }

    /// A large import lands in many commits: the keeper follows it step by step, never building the postings again for
    /// its size, and the searches of each commit it reaches read them.
    @Test func theKeeperCatchesUpALargeImportStepByStepWithoutBuildingAgain() async throws {
        let pair = try Pair(allFields: true)
        var random = SeededGenerator(seed: 41)
        try await pair.keeping.commit(Self.randomItems(0..<100, &random))
        try await pair.keeping.buildSearchPostings()
        for start in stride(from: 100, to: 1_600, by: 100) {
            try await pair.plain.commit(Self.randomItems(start..<start + 100, &random))
        }
        try await pair.keeping.refreshSearchPostings(rowsAStep: 250)
        try await pair.keeping.refreshSearchPostings(rowsAStep: 250)
        #expect(pair.keeping.postings.rowsCaughtUpSinceBuild == 1_500, "caught up, not built again, then or later")
        #expect(pair.keeping.searchStructureRows == 1_600)
        var answered = 0
        for _ in 0..<20 { answered += try await pair.expectSameResults(try Self.randomQuery(&random)) }
        #expect(answered > 0)
    }

    /// One commit holding more rows than a step reads is caught up whole up to five steps' worth (a batch of many small
    /// items); past that, the keeper builds the postings again.
    @Test func aCommitLargerThanAStepIsCaughtUpWholeOrBuiltAgain() async throws {
        let pair = try Pair()
        var random = SeededGenerator(seed: 42)
        try await pair.keeping.commit(Self.randomItems(0..<100, &random))
        try await pair.keeping.buildSearchPostings()
        try await pair.plain.commit(Self.randomItems(100..<400, &random))
        try await pair.keeping.refreshSearchPostings(rowsAStep: 100)
        #expect(pair.keeping.postings.rowsCaughtUpSinceBuild == 300, "three steps' worth in one commit: caught up whole")
        for _ in 0..<10 { try await pair.expectSameResults(try Self.randomQuery(&random)) }
        try await pair.plain.commit(Self.randomItems(400..<1_000, &random))
        try await pair.keeping.refreshSearchPostings(rowsAStep: 100)
        #expect(pair.keeping.postings.rowsCaughtUpSinceBuild == 0, "six steps' worth in one commit: built again")
        #expect(pair.keeping.searchStructureRows == 1_000)
        for _ in 0..<20 { try await pair.expectSameResults(try Self.randomQuery(&random)) }
    }

    /// A keeper's step stops before the commit its read sees and misses the rows rewritten after the step: a search
    /// that reads an earlier commit than that must not use them (it scans rows), one at that commit or later may.
    @Test func aStepServesNoSearchOlderThanTheReadItWasTakenIn() async throws {
        let pair = try Pair()
        var random = SeededGenerator(seed: 44)
        try await pair.keeping.commit(Self.randomItems(0..<100, &random))
        try await pair.keeping.buildSearchPostings()
        try await pair.plain.commit(Self.randomItems(100..<200, &random))
        let firstCommit = try await pair.keeping.lastCommitNumber()
        try await pair.plain.commit(Self.randomItems(200..<300, &random))
        // i150, written by the first commit, rewritten last: a step through the first commit does not read it.
        try await pair.plain.commit(IndexBatch(operations: [.upsert([item("i150", title: "zebu camel")])]))
        let head = try await pair.keeping.lastCommitNumber()
        let caughtUp = try await pair.keeping.database.read { db in
            try pair.keeping.postings.catchUp(db, to: head, maxRows: 150, stepping: true)
        }
        #expect(caughtUp == .stepped)
        #expect(pair.keeping.postings.summary?.commitNumber == firstCommit)
        let match = WordMatch.prefix("c")
        #expect(pair.keeping.postings.firstMembers(.bestFields, matching: match, at: firstCommit, after: nil, limit: 1_000) == nil)
        let atHead = try await pair.keeping.database.read { db in
            try pair.keeping.postings.catchUp(db, to: head, maxRows: 1_000)
        }
        #expect(atHead == .holding)
        #expect(pair.keeping.postings.firstMembers(.bestFields, matching: match, at: head, after: nil, limit: 1_000) != nil)
        for _ in 0..<20 { try await pair.expectSameResults(try Self.randomQuery(&random)) }
    }

    /// Deleted rows leave their ids in the postings: once they outnumber half the live rows, the keeper builds them again.
    @Test func theKeeperBuildsAgainWhenDeletedRowsPileUp() async throws {
        let pair = try Pair()
        var random = SeededGenerator(seed: 43)
        try await pair.keeping.commit(Self.randomItems(0..<2_000, &random))
        try await pair.keeping.buildSearchPostings()
        try await pair.plain.commit(IndexBatch(operations: [.deleteIdentifiers((0..<1_500).map { "i\($0)" })]))
        for start in stride(from: 2_000, to: 3_200, by: 400) {
            try await pair.plain.commit(Self.randomItems(start..<start + 400, &random))
        }
        // Caught up in steps (no commit larger than one), 1,200 rows: time to look, and 1,500 dead ids against 1,700
        // live rows are more than half.
        try await pair.keeping.refreshSearchPostings(rowsAStep: 500)
        #expect(pair.keeping.postings.rowsCaughtUpSinceBuild == 0, "1,500 deleted ids against 1,700 live rows: built again")
        #expect(pair.keeping.searchStructureRows == 1_700)
        for _ in 0..<20 { try await pair.expectSameResults(try Self.randomQuery(&random)) }
    }

    /// A source writing random words (each item a new one) must not grow the service's memory without bound.
    @Test func tooManyDistinctWordsDropThePostingsAndSearchesStayRight() async throws {
        let log = LogRecorder()
        let pair = try Pair(maxWords: 300, keepersLog: log)
        var random = SeededGenerator(seed: 12)
        try await pair.keeping.commit(Self.randomItems(0..<200, &random))
        try await pair.keeping.refreshSearchPostings()
        #expect(pair.keeping.searchStructureRows == 200)
        #expect(try await pair.expectSameResults(try SearchQuery(text: "c")) > 0)
        // New items whose titles are words nobody wrote before: past 300 distinct words, as a search catches them up.
        try await pair.plain.commit(IndexBatch(operations: [.upsert((0..<400).map { n in
            item("random\(n)", title: "w\(n)x\(Int.random(in: 0..<1_000_000, using: &random)) camel", description: "cat")
        })]))
        for _ in 0..<20 { try await pair.expectSameResults(try Self.randomQuery(&random)) }
        #expect(pair.keeping.searchStructureRows == 0, "dropped")
        #expect(!log.contains("distinct words"), "a search has no logger to say it with")
        try await pair.keeping.refreshSearchPostings()
        #expect(pair.keeping.searchStructureRows == 0, "not built again: the build would give up again")
        #expect(log.count("hold more than 300 distinct words") == 1, "the keeper's next look says why, once: \(log.messages)")
        try await pair.keeping.refreshSearchPostings()
        #expect(log.count("distinct words") == 1)
        #expect(try await pair.expectSameResults(try SearchQuery(text: "c")) == 0)

        // A build that meets as many words gives up the same way.
        let fresh = try SQLiteSearchIndex(path: pair.directory.path("index.sqlite"), postingsMaxWords: 300, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await fresh.buildSearchPostings()
        #expect(fresh.searchStructureRows == 0)
    }
}
