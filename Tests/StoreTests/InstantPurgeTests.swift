import Foundation
import Indexing
import Logging
import PluginAPI
import SchedulerService
import Store
import StoreSupport
import Testing

/// A purge is instant on every backend: the domain is gone from every read when `purge` returns, its rows are
/// reclaimed afterwards in short steps, and what is written after the purge is alive.
@Suite("Instant purges")
struct InstantPurgeTests {
    typealias Conformance = StoreConformanceTests

    @Test(arguments: StoreBackend.searching)
    func aPurgedDomainIsGoneFromEveryReadBeforeItsRowsAreReclaimed(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert((1...5).map { Conformance.item("a\($0)", "com.shop.help.fr") } + [Conformance.item("b", "com.shop.blog")])
            #expect(try await store.purge(domain: "com.shop.help") == 5)

            #expect(try await store.index.search(SearchQuery(text: "item")).hits.map(\.uniqueIdentifier) == ["b"])
            #expect(try await store.index.itemCount(inDomain: "com.shop.help") == 0)
            #expect(try await store.index.domainsHoldingItems(among: ["com.shop.help", "com.shop.help.fr", "com.shop"]) == ["com.shop"])
            #expect(try await store.index.itemCountsByDomain() == ["com.shop.blog": 1])
            #expect(try await store.index.item(withIdentifier: "a1") == nil)
            let pending = try await store.index.pendingPurges()
            #expect(pending.map(\.domain) == ["com.shop.help"] && pending.first?.purgedItems == 5 && pending.first?.rowsLeft == 5)

            // The purged identifiers are free at once, for another domain or the same one.
            let moved = try await store.writeRunBatch([Conformance.item("a1", "com.shop.blog")], domain: "com.shop.blog", checkpoint: Conformance.checkpoint())
            #expect(moved.upserted == 1 && moved.taken.isEmpty)
            try await store.index.upsert([Conformance.item("a2", "com.shop.help.fr", title: "Back again")])
            #expect(try await store.index.search(SearchQuery(text: "back")).hits.map(\.uniqueIdentifier) == ["a2"])
            #expect(try await store.index.itemCount(inDomain: "com.shop.help") == 1)

            // Three rows are left (a3…a5); two per step.
            #expect(try await store.index.reclaimPurgedItems(limit: 2) == 2)
            #expect(try await store.index.pendingPurges().first?.rowsLeft == 1)
            #expect(try await store.index.reclaimPurgedItems(limit: 2) == 1)
            #expect(try await store.index.reclaimPurgedItems(limit: 2) == nil)
            #expect(try await store.index.pendingPurges().isEmpty)
            #expect(try await store.index.itemCountsByDomain() == ["com.shop.blog": 2, "com.shop.help.fr": 1])
            #expect(try await store.index.search(SearchQuery(text: "item")).hits.map(\.uniqueIdentifier).sorted() == ["a1", "b"])
        }
    }

    /// An item sent again as it was before its domain was purged is indexed again, and counted so, not as unchanged:
    /// the same counts on every store.
    @Test(arguments: StoreBackend.searching)
    func anItemSentAgainUnchangedAfterAPurgeIsWrittenAgain(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            let items = [Conformance.item("a"), Conformance.item("b")]
            try await store.index.upsert(items)
            _ = try await store.purge(domain: "com.shop.help")
            let again = try await store.writeRunBatch(items, domain: "com.shop.help", checkpoint: Conformance.checkpoint())
            #expect(again.upserted == 2 && again.unchanged == 0)
            #expect(try await store.index.search(SearchQuery(text: "item")).hits.map(\.uniqueIdentifier).sorted() == ["a", "b"])
            let unchanged = try await store.writeRunBatch(items, domain: "com.shop.help", checkpoint: Conformance.checkpoint())
            #expect(unchanged.upserted == 2 && unchanged.unchanged == 2, "sent once more, they are unchanged")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aRunAfterAPurgeDoesNotCountTheHiddenRowsAsStale(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert((1...4).map { Conformance.item("old\($0)") })
            _ = try await store.purge(domain: "com.shop.help")
            let baseline = try await store.index.lastCommitNumber()
            #expect(try await store.index.itemCount(inDomain: "com.shop.help", committedThrough: baseline) == 0, "the delete-ratio guard sees nothing stale")
            _ = try await store.writeRunBatch([Conformance.item("new")], domain: "com.shop.help", checkpoint: Conformance.checkpoint())
            let deleted = try await store.finishRun(
                UnitSuccess(unit: Conformance.unit(), finishedAt: Conformance.now, fingerprint: "f", itemCount: 1), deletingItemsCommittedThrough: baseline
            )
            #expect(deleted == 0)
            #expect(try await store.index.pendingPurges().first?.rowsLeft == 4, "the hidden rows wait for the reclaimer")
            #expect(try await store.index.search(SearchQuery(text: "item")).hits.map(\.uniqueIdentifier) == ["new"])
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aPurgeAndAnUpsertInOneBatchKeepWhatCameAfterThePurge(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert([Conformance.item("before")])
            let outcome = try await store.index.commit(IndexBatch(operations: [
                .upsert([Conformance.item("same-batch-early")]), .deleteDomains(["com.shop.help"]), .upsert([Conformance.item("same-batch-late")]),
            ]))
            #expect(outcome.deleted == 2)
            #expect(try await store.index.search(SearchQuery(text: "item")).hits.map(\.uniqueIdentifier) == ["same-batch-late"])
        }
    }

    @Test(arguments: StoreBackend.real)
    func anInterruptedReclaimResumesAfterReopeningAndTheDomainStaysHidden(backend: StoreBackend) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("purge-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = try await backend.freshLocation(in: folder)
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        try await StoreOpener.withStore(location, historyLength: 100, clock: Conformance.clock, logger: quiet) { store in
            try await store.index.upsert((1...10).map { Conformance.item("a\($0)") })
            _ = try await store.purge(domain: "com.shop.help")
            #expect(try await store.index.reclaimPurgedItems(limit: 3) == 3)
        }
        // The process that was reclaiming is gone; a new one opens the store.
        try await StoreOpener.withStore(location, historyLength: 100, clock: Conformance.clock, logger: quiet) { store in
            #expect(try await store.index.search(SearchQuery(text: "item")).total == 0)
            #expect(try await store.index.pendingPurges().first?.rowsLeft == 7)
            var steps = 0
            while try await store.index.reclaimPurgedItems(limit: 3) != nil { steps += 1 }
            #expect(steps == 3)
            #expect(try await store.index.pendingPurges().isEmpty)
        }
    }
}
