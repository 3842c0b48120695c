import Foundation
import Indexing
import PluginAPI
import ProcessSupport
import SQLiteStore
import Store
import StoreSupport
import Synchronization
import Testing

/// A new search copy started from another copy's snapshot (``SearchCopySnapshotting``, ``SearchCopySource``) rather
/// than the whole feed: it answers as PostgreSQL does once it caught up the commits after the snapshot; a snapshot
/// that cannot follow the store, or a fetch that fails, leaves nothing of it and the copy is made from the feed.
@Suite("A search copy fetched from another")
struct SearchCopyFetchTests {
    /// Gives a snapshot taken earlier, written as a transfer would: both files whole, then in place.
    final class SnapshotSource: SearchCopySource {
        let snapshot: SearchCopySnapshot?
        let failure: (any Error)?
        let fetches = Mutex(0)

        init(_ snapshot: SearchCopySnapshot?, failing failure: (any Error)? = nil) {
            (self.snapshot, self.failure) = (snapshot, failure)
        }

        func fetchCopy(database: String, postings: String) async throws -> String? {
            fetches.withLock { $0 += 1 }
            if let failure { throw failure }
            guard let snapshot else { return nil }
            try Data(try snapshot.database.read(at: 0, count: snapshot.database.size)).write(to: URL(fileURLWithPath: database))
            if let file = snapshot.postings { try Data(try file.read(at: 0, count: file.size)).write(to: URL(fileURLWithPath: postings)) }
            return "the test's snapshot"
        }
    }

    struct PeerVanished: Error {}

    static func copy(at path: String, source: (any SearchCopySource)?, log: LogRecorder) async -> SQLiteSearchCopy {
        let copy = SQLiteSearchCopy(path: path, postings: .all, clock: StoreConformanceTests.clock, logger: log.logger())
        if let source { await copy.fetchNewCopies(from: source) }
        return copy
    }

    /// Runs `copy`'s keeper of search postings, as the service does, until `done` holds (a minute at most).
    static func keeping(_ copy: SQLiteSearchCopy, until done: @escaping @Sendable () -> Bool) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await copy.keepSearchStructures() }
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while !done(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            group.cancelAll()
            #expect(done(), "the keeper did not get there within a minute")
        }
    }

    static let items = (0..<40).map { SearchCopyTests.item("i\($0)", "com.s.\($0 % 3)", "Cheese board \($0)", hint: $0) }

    @Test func aCopyStartsFromAnothersSnapshotThenCatchesUpTheCommitsSince() async throws {
        try await SearchCopyTests.withStoreAndCopyPath { store, feed, path in
            try await store.index.upsert(Self.items)
            let firstLog = LogRecorder()
            let first = await Self.copy(at: path + ".first", source: nil, log: firstLog)
            try await first.follow(feed)
            #expect(await first.isWarming == false)
            // Its postings built and saved, as the service's keeper does once the copy is made.
            try await Self.keeping(first, until: { firstLog.contains("saved the search postings") })
            let snapshot = try #require(try await first.snapshot())
            #expect(snapshot.postings != nil, "the saved postings travel with the copy")
            #expect(try await first.snapshot() === snapshot, "a transfer that starts while another sends shares its snapshot")
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains(".snapshot-") }, "the snapshot's file is unlinked")

            // Commits after the snapshot: a deletion, a change, a purge.
            try await store.index.delete(identifiers: ["i1"])
            try await store.index.upsert([SearchCopyTests.item("i2", "com.s.2", "Wine and cheese")])
            try await store.index.delete(domains: ["com.s.0"])

            let log = LogRecorder(), source = SnapshotSource(snapshot)
            let second = await Self.copy(at: path, source: source, log: log)
            #expect(await second.isWarming, "not ready before its first follow")
            try await second.follow(feed)
            #expect(log.contains("fetched the search copy from the test's snapshot"), "\(log.messages)")
            #expect(!log.contains("made the search copy"))
            #expect(log.metadata("caughtUpTo") == [String(try await store.index.lastCommitNumber())])
            let (made, warming) = (await second.isMade, await second.isWarming)
            #expect(made && !warming)
            try await Self.keeping(second, until: { log.contains("read the saved search postings") })
            #expect(!log.contains("built the search postings"), "\(log.messages)")
            let answers = try await SearchCopyTests.answers(of: second, store, feed)
            #expect(answers.copy == answers.store)
        }
    }

    @Test func aSnapshotOfAnotherStoreIsDroppedAndTheCopyMadeFromTheFeed() async throws {
        let foreign = try await SearchCopyTests.withStoreAndCopyPath { store, feed, path in
            try await store.index.upsert([SearchCopyTests.item("x", "com.other", "Foreign cheese")])
            let copy = await Self.copy(at: path, source: nil, log: LogRecorder())
            try await copy.follow(feed)
            return try #require(try await copy.snapshot())
        }
        try await SearchCopyTests.withStoreAndCopyPath { store, feed, path in
            try await store.index.upsert(Self.items)
            let log = LogRecorder()
            let copy = await Self.copy(at: path, source: SnapshotSource(foreign), log: log)
            try await copy.follow(feed)
            #expect(log.contains("cannot be used; making it from the store: it holds no position"), "\(log.messages)")
            #expect(log.contains("made the search copy"))
            let answers = try await SearchCopyTests.answers(of: copy, store, feed)
            #expect(answers.copy == answers.store)
            #expect(!answers.copy.joined().contains("\"x\""), "nothing of the other store's copy")
        }
    }

    @Test func aFailedFetchOrNoPeerMakesTheCopyFromTheFeed() async throws {
        try await SearchCopyTests.withStoreAndCopyPath { store, feed, path in
            try await store.index.upsert(Self.items)
            for source in [SnapshotSource(nil, failing: PeerVanished()), SnapshotSource(nil)] {
                try? FileManager.default.removeItem(atPath: path)
                let log = LogRecorder()
                let copy = await Self.copy(at: path, source: source, log: log)
                try await copy.follow(feed)
                #expect(source.fetches.withLock { $0 } == 1)
                #expect(log.contains("could not fetch the search copy") == (source.failure != nil), "\(log.messages)")
                #expect(log.contains("made the search copy"))
                let answers = try await SearchCopyTests.answers(of: copy, store, feed)
                #expect(answers.copy == answers.store)
            }
        }
    }
}
