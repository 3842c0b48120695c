import Foundation
import HostSupport
import Indexing
import Logging
import PluginAPI
import ProcessSupport
import SQLiteStore
import SchedulerService
import Store
import StoreSupport
import Synchronization
import Testing

/// The copy of the PostgreSQL index each replica keeps (``SQLiteSearchCopy``): it follows every kind of change, is
/// made right after an interruption anywhere, is made again when it cannot follow, and leaves searches to the store
/// while it is far behind. Every check compares the copy's answers with PostgreSQL's own.
@Suite("The search copy of a PostgreSQL store")
struct SearchCopyTests {
    static let queries = ["cheese", "ch", "boards wine", "plates", "gift", "zzz"]

    static func item(_ id: String, _ domain: String, _ title: String, hint: Int? = nil) -> SearchableItem {
        SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, title: title, contentDescription: "about \(title.lowercased())", rankingHint: hint)
    }

    /// A copy at `path`, on the conformance suite's clock, quiet.
    static func copy(at path: String) -> SQLiteSearchCopy {
        SQLiteSearchCopy(path: path, clock: StoreConformanceTests.clock, logger: PostgresOpeningTests.quiet)
    }

    /// A fresh PostgreSQL store and a copy file beside it; `body` gets the store (searching PostgreSQL itself), its
    /// feed and the copy's path.
    static func withStoreAndCopyPath<Result: Sendable>(
        clock: any WallClock = StoreConformanceTests.clock, _ body: @escaping @Sendable (any SchedulerStore, any IndexChangeFeed, String) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("search-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await StoreBackend.postgres.withFreshStore(clock: clock) { store in
            let feed = try #require(store.index as? any IndexChangeFeed)
            return try await body(store, feed, folder.appendingPathComponent("copy.sqlite").path)
        }
    }

    /// The copy's hits for every query, and the store's own, as comparable lines.
    static func answers(of copy: SQLiteSearchCopy, _ store: any SchedulerStore, _ feed: any IndexChangeFeed) async throws -> (copy: [String], store: [String]) {
        var fromCopy: [String] = [], fromStore: [String] = []
        for text in queries {
            let query = try SearchQuery(text: text, limit: 20)
            let copied = try #require(try await copy.search(query, following: feed), "the copy did not answer '\(text)'")
            fromCopy.append("\(text): \(copied.total) \(copied.hits.map(\.uniqueIdentifier))")
            let own = try await store.index.search(query)
            fromStore.append("\(text): \(own.total) \(own.hits.map(\.uniqueIdentifier))")
        }
        return (fromCopy, fromStore)
    }

    @Test func aCopyFollowsEveryKindOfChange() async throws {
        try await Self.withStoreAndCopyPath { store, feed, path in
            let copy = SQLiteSearchCopy(path: path, commitsCaughtUpBySearch: 0, clock: StoreConformanceTests.clock, logger: PostgresOpeningTests.quiet)
            try await store.index.upsert([
                Self.item("a", "com.s.x", "Cheese boards"), Self.item("b", "com.s.x", "Cheese plates"), Self.item("c", "com.s.y", "Wine"),
                Self.item("d", "com.s.y.z", "Gift cards"), Self.item("e", "com.s.w", "Chocolate"),
            ])
            try await copy.follow(feed)
            var answers = try await Self.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)
            #expect(answers.copy.first == "cheese: 2 [\"a\", \"b\"]")

            let steps: [(String, @Sendable () async throws -> Void)] = [
                ("an item deleted", { try await store.index.delete(identifiers: ["a"]) }),
                ("an item changed and one moved to another domain", {
                    try await store.index.upsert([Self.item("b", "com.s.y", "Cheese plates and boards"), Self.item("c", "com.s.y", "Wine and cheese")])
                }),
                ("a domain purged, a domain under it with it", { try await store.index.delete(domains: ["com.s.y"]) }),
                ("an item back after its purge", { try await store.index.upsert([Self.item("d", "com.s.y.z", "Gift cards for cheese")]) }),
                ("the stale items of a domain deleted", {
                    let through = try await store.index.lastCommitNumber()
                    try await store.index.upsert([Self.item("f", "com.s.w", "Cheese knives")])
                    try await store.index.commit(IndexBatch(operations: [.deleteStale(domain: "com.s.w", committedThrough: through)]))
                }),
                ("everything deleted, then one item", {
                    try await store.index.deleteAll()
                    try await store.index.upsert([Self.item("g", "com.s.x", "Cheese of the month")])
                }),
            ]
            for (step, change) in steps {
                try await change()
                // The copy is behind: with no commit caught up by a search, it leaves the search to the store.
                #expect(try await copy.search(SearchQuery(text: "cheese"), following: feed) == nil, "\(step)")
                try await copy.follow(feed)
                answers = try await Self.answers(of: copy, store, feed)
                #expect(answers.copy == answers.store, "after \(step)")
            }
            #expect(answers.copy.first == "cheese: 1 [\"g\"]")
        }
    }

    /// With `search.postings`, a copy's searches read postings that follow its file: built while it is made, caught up
    /// by its searches, then by the follower as it applies commits, and built by the keeper for a copy opened from its
    /// file.
    @Test func aCopyKeepsSearchPostingsThatAnswerAsTheStoreDoes() async throws {
        try await Self.withStoreAndCopyPath { store, feed, path in
            let copy = SQLiteSearchCopy(path: path, postings: .all, clock: StoreConformanceTests.clock, logger: PostgresOpeningTests.quiet)
            try await store.index.upsert((0..<30).map { Self.item("i\($0)", "com.s.x", ["Cheese boards", "Cheese plates", "Wine", "Gift"][$0 % 4]) })
            try await copy.follow(feed)
            var answers = try await Self.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)
            #expect(await copy.searchStructureRows == 30, "its searches caught the postings up to the 30 items")

            try await store.index.upsert([Self.item("i1", "com.s.x", "Chocolate"), Self.item("n", "com.s.x", "Cheese knives")])
            try await store.index.delete(identifiers: ["i0"])
            try await copy.follow(feed)
            #expect(await copy.searchStructureRows == 32, "the follower caught them up as it applied: two rows more, rewritten or new")
            answers = try await Self.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)

            // Opened from its file (a restart): no postings until the keeper builds them, searches as right meanwhile.
            let reopened = SQLiteSearchCopy(path: path, postings: .all, clock: StoreConformanceTests.clock, logger: PostgresOpeningTests.quiet)
            #expect(await reopened.searchStructureRows == 0)
            answers = try await Self.answers(of: reopened, store, feed)
            #expect(answers.copy == answers.store)
            let keeper = Task { try await reopened.keepSearchStructures() }
            defer { keeper.cancel() }
            var built = false
            for _ in 0..<600 where !built {
                built = await reopened.searchStructureRows == 30
                if !built { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(built, "the keeper built the postings of the 30 live items")
            answers = try await Self.answers(of: reopened, store, feed)
            #expect(answers.copy == answers.store)
            // And saved them beside the copy's file, for the next start (which reads them: SavedPostingsTests).
            var saved = false
            for _ in 0..<600 where !saved {
                saved = FileManager.default.fileExists(atPath: path + ".postings")
                if !saved { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(saved, "the keeper saved the copy's postings")
        }
    }

    @Test func aSearchCatchesUpAFewCommitsAndLeavesMoreToTheStore() async throws {
        try await Self.withStoreAndCopyPath { store, feed, path in
            let copy = Self.copy(at: path)
            #expect(try await copy.search(SearchQuery(text: "cheese"), following: feed) == nil, "not made yet")
            #expect(await copy.searchesWithoutThem == 1, "the store answered: what the metrics count")
            try await copy.follow(feed)
            for number in 0..<SQLiteSearchCopy.defaultCommitsCaughtUpBySearch {
                try await store.index.upsert([Self.item("i\(number)", "com.s.x", "Cheese \(number)")])
            }
            let caughtUp = try #require(try await copy.search(SearchQuery(text: "cheese"), following: feed))
            #expect(caughtUp.total == Int(SQLiteSearchCopy.defaultCommitsCaughtUpBySearch), "what was committed is found at once")
            for number in 0...SQLiteSearchCopy.defaultCommitsCaughtUpBySearch {
                try await store.index.upsert([Self.item("j\(number)", "com.s.x", "Cheese \(number)")])
            }
            let before = await copy.searchesWithoutThem
            #expect(try await copy.search(SearchQuery(text: "cheese"), following: feed) == nil, "too far behind")
            #expect(await copy.searchesWithoutThem == before + 1)
            try await copy.follow(feed)
            #expect(try await copy.search(SearchQuery(text: "cheese"), following: feed)?.total == 2 * Int(SQLiteSearchCopy.defaultCommitsCaughtUpBySearch) + 1)
        }
    }

    /// A feed that fails its `failingCall`-th call: a replica killed, or the database lost, anywhere in an application.
    final class FailingFeed: IndexChangeFeed {
        let feed: any IndexChangeFeed
        let failingCall: Int
        private let calls = Mutex(0)

        init(_ feed: any IndexChangeFeed, failingCall: Int) {
            self.feed = feed
            self.failingCall = failingCall
        }

        struct Cut: Error {}

        private func count() throws {
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            if call == failingCall { throw Cut() }
        }

        func feedHead() async throws -> IndexFeedHead {
            try count()
            return try await feed.feedHead()
        }

        func removals(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexRemoval)] {
            try count()
            return try await feed.removals(after: cursor, through: head, limit: min(limit, 1))
        }

        func changedItems(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexFeedItem)] {
            try count()
            return try await feed.changedItems(after: cursor, through: head, limit: min(limit, 2))
        }

        func changedOpens(after: Int64, through head: Int64) async throws -> [OpenTally] {
            try count()
            return try await feed.changedOpens(after: after, through: head)
        }
    }

    /// Cut at every read in turn while the copy is made and while it applies removals, items and opens, in pages of
    /// one or two: the next follow always leaves it answering as the store does, from a copy opened again too.
    @Test func aCopyCutAnywhereIsRightAfterTheNextFollow() async throws {
        try await Self.withStoreAndCopyPath { store, feed, path in
            let first = [Self.item("a", "com.s.x", "Cheese boards"), Self.item("b", "com.s.x", "Cheese plates"), Self.item("c", "com.s.y", "Wine"),
                         Self.item("d", "com.s.y", "Gift cards"), Self.item("e", "com.s.w", "Chocolate")]
            try await store.index.upsert(first)
            try await store.index.recordOpens([OpenTally(key: .init(day: UsageDay.of(StoreConformanceTests.clock.now()), identifier: "b", query: nil), opens: 50)])
            // Making it reads the head, 3 pages of items and an empty one, then the opens.
            for failingCall in 1...6 {
                let copyPath = path + "-made-\(failingCall)"
                let copy = SQLiteSearchCopy(path: copyPath, clock: StoreConformanceTests.clock, logger: PostgresOpeningTests.quiet)
                await #expect(throws: FailingFeed.Cut.self) { try await copy.follow(FailingFeed(feed, failingCall: failingCall)) }
                #expect(await !copy.isMade, "a copy cut while it is made is not used")
                let reopened = SQLiteSearchCopy(path: copyPath, clock: StoreConformanceTests.clock, logger: PostgresOpeningTests.quiet)
                #expect(await !reopened.isMade, "nor when it is opened again")
                try await reopened.follow(feed)
                let answers = try await Self.answers(of: reopened, store, feed)
                #expect(answers.copy == answers.store, "made after a cut at read \(failingCall)")
            }

            let copy = Self.copy(at: path)
            try await copy.follow(feed)
            try await store.index.delete(identifiers: ["a", "c"])
            try await store.index.delete(domains: ["com.s.w"])
            try await store.index.upsert([Self.item("a", "com.s.x", "Cheese boards again"), Self.item("f", "com.s.x", "Cheese knives")])
            try await store.index.recordOpens([OpenTally(key: .init(day: UsageDay.of(StoreConformanceTests.clock.now()), identifier: "f", query: nil), opens: 5_000)])
            // Applying reads the head, 3 removals and an empty page, a page of 2 items and an empty one, then the opens.
            for failingCall in 1...8 {
                await #expect(throws: FailingFeed.Cut.self) { try await copy.follow(FailingFeed(feed, failingCall: failingCall)) }
            }
            let reopened = Self.copy(at: path)
            #expect(await reopened.isMade, "a copy cut while it applies changes stays a copy")
            try await reopened.follow(feed)
            let answers = try await Self.answers(of: reopened, store, feed)
            #expect(answers.copy == answers.store)
            #expect(answers.copy.first == "cheese: 3 [\"f\", \"b\", \"a\"]", "the opens of f lifted it above b")
        }
    }

    /// A copy of another database, or one that stood still past the removals the store keeps, is made again.
    @Test func aCopyThatCannotFollowIsMadeAgain() async throws {
        let clock = SettableClock(StoreConformanceTests.clock.now())
        try await Self.withStoreAndCopyPath(clock: clock) { store, feed, path in
            try await store.index.upsert([Self.item("a", "com.s.x", "Cheese boards"), Self.item("b", "com.s.x", "Cheese plates")])
            let copy = SQLiteSearchCopy(path: path, clock: clock, logger: PostgresOpeningTests.quiet)
            try await copy.follow(feed)
            #expect(try await Self.sqlite3(path, "CREATE TABLE marker (x); SELECT count(*) FROM sqlite_master WHERE name = 'marker'") == "1")

            // Stopped for eight days while an item was deleted: the removal is forgotten, the copy is made again.
            try await store.index.delete(identifiers: ["a"])
            clock.set(clock.now().addingTimeInterval(8 * 86_400))
            try await store.index.sweepExpired()
            try await copy.follow(feed)
            #expect(try await Self.sqlite3(path, "SELECT count(*) FROM sqlite_master WHERE name = 'marker'") == "0", "made again")
            let answers = try await Self.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)

            // The same file pointed at another database.
            try await StoreBackend.postgres.withFreshStore(clock: clock) { other in
                try await other.index.upsert([Self.item("z", "com.s.x", "Cheese from elsewhere")])
                let otherFeed = try #require(other.index as? any IndexChangeFeed)
                #expect(try await copy.search(SearchQuery(text: "cheese"), following: otherFeed) == nil)
                try await copy.follow(otherFeed)
                let answers = try await Self.answers(of: copy, other, otherFeed)
                #expect(answers.copy == answers.store)
                #expect(answers.copy.first == "cheese: 1 [\"z\"]")
            }
        }
    }

    /// A copy about a week behind reads the removals of the commits it missed as the store's sweep forgets them: it
    /// must not take the few it read for all of them, whether the follower or a search catches it up. It answers
    /// nothing until it is made again, then as the store.
    @Test(arguments: [false, true]) func removalsForgottenWhileTheCopyReadsThemMakeItAgain(caughtUpBySearch: Bool) async throws {
        let clock = SettableClock(StoreConformanceTests.clock.now())
        try await Self.withStoreAndCopyPath(clock: clock) { store, feed, path in
            try await store.index.upsert([Self.item("a", "com.s.x", "Cheese boards"), Self.item("b", "com.s.x", "Cheese plates")])
            let copy = SQLiteSearchCopy(path: path, clock: clock, logger: PostgresOpeningTests.quiet)
            try await copy.follow(feed)

            try await store.index.delete(identifiers: ["a"])
            clock.set(clock.now().addingTimeInterval(8 * 86_400))
            let forgetting = ForgettingWhileRead(feed, sweeping: store.index)
            if caughtUpBySearch {
                #expect(try await copy.search(SearchQuery(text: "cheese"), following: forgetting) == nil, "the copy answered without the removal of a")
            } else {
                try await copy.follow(forgetting)
            }
            #expect(try await copy.search(SearchQuery(text: "cheese"), following: feed) == nil, "the copy answered without the removal of a")

            try await copy.follow(feed)
            let answers = try await Self.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)
        }
    }

    /// A feed whose store's sweep runs (and forgets old removals) just before the removals are read.
    struct ForgettingWhileRead: IndexChangeFeed {
        let feed: any IndexChangeFeed
        let index: any SearchIndex

        init(_ feed: any IndexChangeFeed, sweeping index: any SearchIndex) {
            self.feed = feed
            self.index = index
        }

        func feedHead() async throws -> IndexFeedHead { try await feed.feedHead() }

        func removals(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexRemoval)] {
            _ = try await index.sweepExpired()
            return try await feed.removals(after: cursor, through: head, limit: limit)
        }

        func changedItems(after cursor: IndexFeedCursor, through head: Int64, limit: Int) async throws -> [(IndexFeedCursor, IndexFeedItem)] {
            try await feed.changedItems(after: cursor, through: head, limit: limit)
        }

        func changedOpens(after: Int64, through head: Int64) async throws -> [OpenTally] {
            try await feed.changedOpens(after: after, through: head)
        }
    }

    /// The store keeps an item rewritten with the same hint in its place in priority order; a copy made afterwards
    /// receives it last, and must still put it first: past the candidate cut (100 per scan), the hits depend on it.
    @Test func aCopyKeepsTheStoresOrderPastTheCandidateCut() async throws {
        try await Self.withStoreAndCopyPath { store, feed, path in
            try await store.index.upsert((0..<150).map { Self.item(String(format: "i%03d", $0), "com.s.x", String(format: "Cheese %03d", $0)) })
            try await store.index.upsert([SearchableItem(uniqueIdentifier: "i000", domainIdentifier: "com.s.x", title: "Cheese 000", contentDescription: "rewritten")])
            let copy = Self.copy(at: path)
            try await copy.follow(feed)
            let query = try SearchQuery(text: "cheese", limit: 20)
            let copied = try #require(try await copy.search(query, following: feed))
            let own = try await store.index.search(query)
            #expect(copied.hits.map(\.uniqueIdentifier) == own.hits.map(\.uniqueIdentifier))
            #expect(copied.hits.first?.uniqueIdentifier == "i000")
        }
    }

    /// An item moved to another domain, then that domain purged, both before the copy follows: the copy, which holds
    /// the item under its first domain, deletes it.
    @Test func anItemMovedThenPurgedInOneFollowIsGone() async throws {
        try await Self.withStoreAndCopyPath { store, feed, path in
            try await store.index.upsert([Self.item("x", "com.s.a", "Cheese boards"), Self.item("y", "com.s.a", "Cheese plates")])
            let copy = Self.copy(at: path)
            try await copy.follow(feed)
            try await store.index.upsert([Self.item("x", "com.s.b", "Cheese boards")])
            try await store.index.delete(domains: ["com.s.b"])
            try await copy.follow(feed)
            let answers = try await Self.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)
            #expect(answers.copy.first == "cheese: 1 [\"y\"]")
        }
    }

    /// A commit that cleared the index and wrote items, then opens: the next commits are applied without clearing the
    /// copy again, so the opens stay.
    @Test func opensAfterAClearingCommitStayThroughTheNextOnes() async throws {
        try await Self.withStoreAndCopyPath { store, feed, path in
            let copy = Self.copy(at: path)
            try await copy.follow(feed)
            try await store.index.commit(IndexBatch(operations: [.deleteAll, .upsert([Self.item("b", "com.s.x", "Cheese plates"), Self.item("f", "com.s.x", "Cheese knives")])]))
            try await copy.follow(feed)
            try await store.index.recordOpens([OpenTally(key: .init(day: UsageDay.of(StoreConformanceTests.clock.now()), identifier: "f", query: nil), opens: 5_000)])
            try await copy.follow(feed)
            try await store.index.upsert([Self.item("c", "com.s.y", "Wine")])
            try await copy.follow(feed)
            let answers = try await Self.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)
            #expect(answers.copy.first == "cheese: 2 [\"f\", \"b\"]", "f's opens are still counted")
        }
    }

    /// What the `sqlite3` command-line tool prints for `sql` on the file at `path`, trimmed.
    static func sqlite3(_ path: String, _ sql: String) async throws -> String {
        let output = Pipe()
        let process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [path, sql], standardOutput: .pipe(output))
        let printed = try await onOwnThread { output.fileHandleForReading.readDataToEndOfFile() }
        #expect(await process.exited() == 0, "sqlite3 failed on: \(sql)")
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
