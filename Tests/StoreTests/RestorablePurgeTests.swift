import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// A purge a configuration change caused is restorable for its grace on every backend (a replica's search copy
/// included): its items leave search at once, its rows and the units' states stay, and a restore brings them back in
/// one commit; past the grace the reclaimer makes it final, and nothing brings back a half-reclaimed domain.
@Suite("Restorable purges")
struct RestorablePurgeTests {
    typealias Conformance = StoreConformanceTests
    static let grace: TimeInterval = 3600

    /// A store holding five items of `com.shop.help` and a success of its unit, its clock at ``Conformance/now``.
    static func withIndexedUnit(_ backend: StoreBackend, _ body: @escaping @Sendable (any SchedulerStore, SettableClock) async throws -> Void) async throws {
        let clock = SettableClock(Conformance.now)
        try await backend.withFreshStore(clock: clock) { store in
            try await store.recordAttemptStart(Conformance.unit(), at: Conformance.now, forced: false)
            _ = try await store.writeRunBatch((1...5).map { Conformance.item("a\($0)") }, domain: "com.shop.help", checkpoint: Conformance.checkpoint())
            _ = try await store.finishRun(
                UnitSuccess(unit: Conformance.unit(), finishedAt: Conformance.now, fingerprint: "f", itemCount: 5), deletingItemsCommittedThrough: nil
            )
            try await body(store, clock)
        }
    }

    static func found(_ store: any SchedulerStore) async throws -> [String] {
        try await store.index.search(SearchQuery(text: "item")).hits.map(\.uniqueIdentifier).sorted()
    }

    @Test(arguments: StoreBackend.searching)
    func aRestoredPurgeBringsTheItemsAndTheStateBackInOneCommit(backend: StoreBackend) async throws {
        try await Self.withIndexedUnit(backend) { store, _ in
            let until = Conformance.now.addingTimeInterval(Self.grace)
            let purged = try await store.purge(domain: "com.shop.help", restorableUntil: until)
            #expect(purged == PurgeOutcome(deleted: 5, restorableUntil: until))
            #expect(try await Self.found(store).isEmpty, "gone from search at once")
            #expect(try await store.index.item(withIdentifier: "a1") == nil)
            #expect(try await store.unit("help")?.lastSuccessAt == Conformance.now, "the unit's success is kept")
            #expect(try await store.index.restorablePurges() == ["com.shop.help": until])
            #expect(try await store.index.pendingPurges().first?.restorableUntil == until)
            #expect(try await store.index.reclaimPurgedItems(limit: 10) == nil, "the reclaimer leaves a restorable purge alone")

            #expect(try await store.index.lastClientState(batchName: "run/help") != nil)
            #expect(try await store.restorePurge(domain: "com.shop.help", endingCheckpoints: ["run/help"]) == 5)
            #expect(try await store.index.lastClientState(batchName: "run/help") == nil, "no run resumes from a checkpoint older than the restore")
            #expect(try await Self.found(store) == ["a1", "a2", "a3", "a4", "a5"])
            #expect(try await store.index.itemCount(inDomain: "com.shop.help") == 5)
            #expect(try await store.index.pendingPurges().isEmpty)
            #expect(try await store.index.restorablePurges().isEmpty)
            let state = try await store.unit("help")
            #expect(state?.lastSuccessAt == Conformance.now && state?.fingerprint == "f" && state?.itemCount == 5)
            #expect(try await store.restorePurge(domain: "com.shop.help", endingCheckpoints: []) == nil, "nothing left to restore")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func pastItsGraceThePurgeIsReclaimedAndCannotBeRestored(backend: StoreBackend) async throws {
        try await Self.withIndexedUnit(backend) { store, clock in
            _ = try await store.purge(domain: "com.shop.help", restorableUntil: Conformance.now.addingTimeInterval(Self.grace))
            clock.set(Conformance.now.addingTimeInterval(Self.grace))
            #expect(try await store.restorePurge(domain: "com.shop.help", endingCheckpoints: []) == nil, "the grace ends at its instant")
            #expect(try await store.index.reclaimPurgedItems(limit: 2) == 2)
            #expect(try await store.index.restorablePurges().isEmpty, "its first reclaim step made it final")
            clock.set(Conformance.now)
            #expect(try await store.restorePurge(domain: "com.shop.help", endingCheckpoints: []) == nil, "a half-reclaimed domain never comes back, whatever the clock says")
            #expect(try await Self.found(store).isEmpty)
            while try await store.index.reclaimPurgedItems(limit: 2) != nil {}
            #expect(try await store.index.pendingPurges().isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anOperatorsPurgeOrAnEarlierPurgeStillReclaimingMakesItFinal(backend: StoreBackend) async throws {
        try await Self.withIndexedUnit(backend) { store, _ in
            let until = Conformance.now.addingTimeInterval(Self.grace)
            _ = try await store.purge(domain: "com.shop.help", restorableUntil: until)
            #expect(try await store.purge(domain: "com.shop.help") == 0, "purge now: nothing more leaves search")
            #expect(try await store.index.restorablePurges().isEmpty)
            #expect(try await store.restorePurge(domain: "com.shop.help", endingCheckpoints: []) == nil)
            #expect(try await store.unit("help")?.lastSuccessAt == nil, "a final purge forgets the unit's success")

            // Reindexed, then purged again before the first purge's rows are reclaimed: a restore would bring those
            // back too, so this purge is final.
            _ = try await store.writeRunBatch([Conformance.item("b1")], domain: "com.shop.help", checkpoint: Conformance.checkpoint())
            let again = try await store.purge(domain: "com.shop.help", restorableUntil: until)
            #expect(again == PurgeOutcome(deleted: 1, restorableUntil: nil))
            #expect(try await store.index.restorablePurges().isEmpty)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aRestoreLeavesADomainBelowPurgedForGoodHidden(backend: StoreBackend) async throws {
        try await Self.withIndexedUnit(backend) { store, _ in
            try await store.index.upsert([Conformance.item("fr1", "com.shop.help.fr"), Conformance.item("fr2", "com.shop.help.fr")])
            #expect(try await store.purge(domain: "com.shop.help.fr") == 2)
            _ = try await store.purge(domain: "com.shop.help", restorableUntil: Conformance.now.addingTimeInterval(Self.grace))
            #expect(try await store.restorePurge(domain: "com.shop.help", endingCheckpoints: []) == 5)
            #expect(try await Self.found(store) == ["a1", "a2", "a3", "a4", "a5"])
            #expect(try await store.index.itemCount(inDomain: "com.shop.help") == 5)
        }
    }
}
