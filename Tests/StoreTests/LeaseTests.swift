import Foundation
import HostSupport
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Leases with fencing, on the store replicas share (PostgreSQL).
@Suite("Leases and fencing")
struct LeaseTests {
    static let clock = FixedWallClock(ISO8601.date(from: "2026-03-01T12:00:00Z")!)

    @Test func aLeaseHasOneHolderAndEveryGrantANewerToken() async throws {
        try await StoreBackend.postgres.withFreshStore(clock: Self.clock) { store in
            let leases = try #require(store.leases)
            let first = try #require(try await leases.take("unit/a", holder: "replica-1", for: .seconds(60)))
            #expect(try await leases.take("unit/a", holder: "replica-2", for: .seconds(60)) == nil)
            #expect(try await leases.take("unit/a", holder: "replica-1", for: .seconds(60)) == nil, "a holder renews, it does not take twice")
            #expect(try await leases.take("unit/b", holder: "replica-2", for: .seconds(60)) != nil, "other names are free")
            #expect(try await leases.liveLeases().map(\.name) == ["unit/a", "unit/b"])
            try await leases.release(first)
            let second = try #require(try await leases.take("unit/a", holder: "replica-2", for: .seconds(60)))
            #expect(second.token > first.token)
            #expect(try await leases.renew(first, for: .seconds(60)) == nil, "the old grant cannot be renewed")
            try await leases.release(first)
            #expect(try await leases.renew(second, for: .seconds(60)) != nil, "releasing an old grant leaves the new one")
        }
    }

    @Test func aHolderThatLostItsLeaseCannotWriteAnything() async throws {
        try await StoreBackend.postgres.withFreshStore(clock: Self.clock) { store in
            let leases = try #require(store.leases)
            let unit = UnitState(unit: "help", source: "help", domain: "com.shop.help")
            let zombie = try #require(try await leases.take(Lease.unitName("help"), holder: "zombie", for: .milliseconds(50)))
            let asZombie = leases.fenced(by: zombie)
            try await asZombie.recordAttemptStart(unit, at: Self.clock.now(), forced: false)
            let baseline = try await store.index.lastCommitNumber()

            // The zombie stalls past its lease; another replica takes the unit over.
            var successor: Lease?
            let deadline = Date().addingTimeInterval(60)
            while successor == nil, Date() < deadline {
                successor = try await leases.take(Lease.unitName("help"), holder: "successor", for: .seconds(60))
            }
            let taken = try #require(successor)

            let item = SearchableItem(uniqueIdentifier: "z", domainIdentifier: "com.shop.help", title: "Zombie")
            let checkpoint = IndexBatch.ClientState(batchName: "run/help", data: Data())
            await #expect(throws: LeaseLost.self) { try await asZombie.writeRunBatch([item], domain: "com.shop.help", checkpoint: checkpoint) }
            await #expect(throws: LeaseLost.self) {
                try await asZombie.finishRun(UnitSuccess(unit: unit, finishedAt: Self.clock.now(), fingerprint: "f", itemCount: 1), deletingItemsCommittedThrough: baseline)
            }
            await #expect(throws: LeaseLost.self) { try await asZombie.recordFailure(unit, error: "late", failures: 1, retryAt: Self.clock.now()) }
            await #expect(throws: LeaseLost.self) { try await asZombie.purge(domain: "com.shop.help") }
            #expect(try await store.index.item(withIdentifier: "z") == nil)
            #expect(try await store.units()["help"]?.lastSuccessAt == nil)

            let asSuccessor = leases.fenced(by: taken)
            #expect(try await asSuccessor.writeRunBatch([item], domain: "com.shop.help", checkpoint: checkpoint).upserted == 1)
            do {
                _ = try await asZombie.writeRunBatch([item], domain: "com.shop.help", checkpoint: checkpoint)
                Issue.record("the zombie wrote")
            } catch let lost as LeaseLost {
                #expect(lost.description.contains("lost to successor"), "\(lost)")
            }
        }
    }

    @Test func aRunningUnitWhoseLeaseIsLiveIsNotMarkedInterrupted() async throws {
        try await StoreBackend.postgres.withFreshStore(clock: Self.clock) { store in
            let leases = try #require(store.leases)
            let running = UnitState(unit: "a", source: "a", domain: "com.a"), dead = UnitState(unit: "b", source: "b", domain: "com.b")
            let lease = try #require(try await leases.take(Lease.unitName("a"), holder: "alive", for: .seconds(60)))
            try await leases.fenced(by: lease).recordAttemptStart(running, at: Self.clock.now(), forced: false)
            try await store.recordAttemptStart(dead, at: Self.clock.now(), forced: false)
            #expect(try await store.markInterrupted().map(\.unit) == ["b"])
            #expect(try await store.units()["a"]?.lastResult == .running)
        }
    }
}
