import Foundation
import HostSupport
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// The due index every backend keeps for the pass (``SchedulerStore/unitsToDecide(at:settledUnder:)``): a unit a pass
/// settled is not read again until its instant, under the same signature, while nothing else changes its state; and
/// the count of the index's changes from outside the runs, which tells a pass that a domain may have been emptied.
@Suite("The due index")
struct DueIndexTests {
    static let now = ISO8601.date(from: "2026-03-01T12:00:00Z")!
    static let clock = FixedWallClock(now)

    static func unit(_ key: String) -> UnitState {
        UnitState(unit: key, source: "help", domain: "com.shop.\(key)")
    }

    /// Runs `key` to success, as a pass does: attempt, batch, final commit.
    static func succeed(_ key: String, in store: any SchedulerStore, at date: Date = now) async throws {
        try await store.recordAttemptStart(unit(key), at: date, forced: false)
        _ = try await store.writeRunBatch(
            [SearchableItem(uniqueIdentifier: "\(key)-1", domainIdentifier: "com.shop.\(key)", title: "Item")], domain: "com.shop.\(key)",
            checkpoint: IndexBatch.ClientState(batchName: "run/\(key)", data: Data())
        )
        _ = try await store.finishRun(UnitSuccess(unit: unit(key), finishedAt: date, fingerprint: "f", itemCount: 1), deletingItemsCommittedThrough: nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aSettledUnitIsDecidedAgainAtItsInstantUnderTheSameSignatureOnly(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            for key in ["a", "b"] { try await Self.succeed(key, in: store) }
            #expect(Set(try await store.unitsToDecide(at: Self.now, settledUnder: "s1").keys) == ["a", "b"], "a run leaves its unit unsettled")

            let states = try await store.units()
            let until = Self.now.addingTimeInterval(3600)
            try await store.settle(
                [UnitSettlement(states["a"]!, until: until), UnitSettlement(states["b"]!, until: .distantFuture)], under: "s1", completing: nil
            )
            #expect(try await store.unitsToDecide(at: Self.now, settledUnder: "s1").isEmpty)
            #expect(try await store.unitsToDecide(at: until.addingTimeInterval(-1), settledUnder: "s1").isEmpty)
            #expect(Set(try await store.unitsToDecide(at: until, settledUnder: "s1").keys) == ["a"], "due at its instant")
            #expect(Set(try await store.unitsToDecide(at: Self.now, settledUnder: "s2").keys) == ["a", "b"], "settled under another configuration")
            let read = try #require(try await store.unit("a"))
            #expect(read.settledUntil == until && read.settledUnder == "s1")

            try await store.settle([UnitSettlement(states["a"]!, until: nil)], under: "s1", completing: nil)
            #expect(Set(try await store.unitsToDecide(at: Self.now, settledUnder: "s1").keys) == ["a"], "settled until the next pass")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func everyChangeOfAStateUnsettlesItsUnit(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            for key in ["run", "fail", "purge", "interrupt"] { try await Self.succeed(key, in: store) }
            let settled = try await store.units().values.map { UnitSettlement($0, until: .distantFuture) }
            try await store.settle(settled, under: "s", completing: nil)
            #expect(try await store.unitsToDecide(at: Self.now, settledUnder: "s").isEmpty)

            try await Self.succeed("run", in: store, at: Self.now.addingTimeInterval(60))
            try await store.recordFailure(Self.unit("fail"), error: "boom", failures: 1, retryAt: Self.now.addingTimeInterval(600))
            _ = try await store.purge(domain: "com.shop.purge")
            try await store.recordAttemptStart(Self.unit("interrupt"), at: Self.now.addingTimeInterval(60), forced: false)
            #expect(Set(try await store.unitsToDecide(at: Self.now, settledUnder: "s").keys) == ["run", "fail", "purge", "interrupt"])
        }
    }

    /// A pass settles what it read: a unit whose state changed since (another replica ran it) stays for the next pass.
    @Test(arguments: StoreBackend.allCases)
    func aUnitWhoseStateChangedSinceItWasReadIsNotSettled(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await Self.succeed("a", in: store)
            let read = try #require(try await store.unit("a"))
            try await Self.succeed("a", in: store, at: Self.now.addingTimeInterval(60))
            try await store.settle([UnitSettlement(read, until: .distantFuture)], under: "s", completing: nil)
            #expect(Set(try await store.unitsToDecide(at: Self.now, settledUnder: "s").keys) == ["a"])
            #expect(try await store.unit("a")?.settledUntil == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theSettlementOfAWholePassIsKeptUntilTheNextOne(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            #expect(try await store.passSettlement() == nil)
            try await store.settle([], under: "s1", completing: PassSettlement(signature: "s1", outsideChanges: 3))
            #expect(try await store.passSettlement() == PassSettlement(signature: "s1", outsideChanges: 3))
            try await store.settle([], under: "s1", completing: nil)
            #expect(try await store.passSettlement() == PassSettlement(signature: "s1", outsideChanges: 3), "a tick that settles a few units keeps it")
            try await store.settle([], under: "s2", completing: PassSettlement(signature: "s2", outsideChanges: 4))
            #expect(try await store.passSettlement() == PassSettlement(signature: "s2", outsideChanges: 4))
        }
    }

    /// Imports, deletions, purges and the expiry sweep may empty a domain a unit succeeded in: each counts; a unit's
    /// own run does not (its state changes with it).
    @Test(arguments: StoreBackend.allCases)
    func changesFromOutsideTheRunsAreCounted(backend: StoreBackend) async throws {
        let clock = SettableClock(Self.now)
        try await backend.withFreshStore(clock: clock) { store in
            #expect(try await store.index.outsideChangeCount() == 0)
            try await Self.succeed("a", in: store)
            #expect(try await store.index.outsideChangeCount() == 0, "a unit's run")
            // A purge may empty a domain under a unit's own, whose state it leaves: it counts.
            _ = try await store.purge(domain: "com.shop.a.archive")
            #expect(try await store.index.outsideChangeCount() == 1, "a purge")

            var expiring = SearchableItem(uniqueIdentifier: "x", domainIdentifier: "com.shop.b", title: "Expiring")
            expiring.expirationDate = Self.now.addingTimeInterval(60)
            try await store.index.upsert([expiring])
            #expect(try await store.index.outsideChangeCount() == 2, "an import")
            #expect(try await store.index.sweepExpired() == 0)
            #expect(try await store.index.outsideChangeCount() == 2, "a sweep that deleted nothing")
            clock.set(Self.now.addingTimeInterval(120))
            #expect(try await store.index.sweepExpired() == 1)
            #expect(try await store.index.outsideChangeCount() == 3, "a sweep that deleted")
            try await store.index.delete(identifiers: ["nothing"])
            #expect(try await store.index.outsideChangeCount() == 4, "a deletion")
        }
    }
}
