import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Open counts on every backend: added up by item, query and day, kept through reindexes of the item, and deleted
/// with it however it goes.
@Suite("Open counts")
struct OpenCountTests {
    typealias Conformance = StoreConformanceTests

    static func tally(_ identifier: String, query: String? = nil, day: Int = 20_000, opens: Int = 1) -> OpenTally {
        OpenTally(key: OpenTally.Key(day: day, identifier: identifier, query: query), opens: opens)
    }

    static func opens(_ store: any SchedulerStore, _ identifier: String) async throws -> [Int] {
        try await store.index.openTallies(identifier: identifier).map(\.opens)
    }

    @Test(arguments: StoreBackend.allCases)
    func countsAddUpByItemQueryAndDayAndSurviveAReindex(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert([Conformance.item("a"), Conformance.item("b")])
            try await store.index.recordOpens([Self.tally("a"), Self.tally("a", query: "cheese"), Self.tally("a", day: 20_001, opens: 3)])
            try await store.index.recordOpens([Self.tally("a", opens: 2), Self.tally("a", query: "cheese"), Self.tally("ghost"), Self.tally("b", query: "wine")])
            let tallies = try await store.index.openTallies(identifier: "a")
            #expect(tallies.map(\.key.query) == [nil, nil, "cheese"])
            #expect(tallies.map(\.key.day) == [20_000, 20_001, 20_000])
            #expect(tallies.map(\.opens) == [3, 3, 2])
            #expect(try await store.index.openTallies(identifier: "ghost").isEmpty, "an item not in the index gets no count")
            #expect(try await Self.opens(store, "b") == [1])

            try await store.index.upsert([Conformance.item("a", title: "Renamed by a reindex", description: "new words")])
            #expect(try await Self.opens(store, "a") == [3, 3, 2], "opens belong to the identifier, not to one version of the item")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func countsGoWithTheirItemHoweverItIsDeleted(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            let expired = SearchableItem(uniqueIdentifier: "expired", domainIdentifier: "com.shop.blog", title: "Old", expirationDate: Conformance.now.addingTimeInterval(-1))
            try await store.index.upsert([
                Conformance.item("deleted"), Conformance.item("stale"), Conformance.item("kept"), Conformance.item("purged", "com.shop.help.fr"),
                Conformance.item("all", "com.shop.blog"), expired,
            ])
            let identifiers = ["deleted", "stale", "kept", "purged", "all", "expired"]
            try await store.index.recordOpens(identifiers.flatMap { [Self.tally($0), Self.tally($0, query: "q")] })

            try await store.index.delete(identifiers: ["deleted"])
            #expect(try await Self.opens(store, "deleted").isEmpty)
            try await store.index.upsert([Conformance.item("deleted")])
            #expect(try await Self.opens(store, "deleted").isEmpty, "an item indexed again starts from nothing")

            _ = try await store.purge(domain: "com.shop.help.fr")
            #expect(try await Self.opens(store, "purged").isEmpty, "a purge deletes its opens at once, before its rows are reclaimed")
            #expect(try await store.index.pendingPurges().count == 1)

            #expect(try await store.index.sweepExpired() == 1)
            #expect(try await Self.opens(store, "expired").isEmpty)

            let baseline = try await store.index.lastCommitNumber()
            _ = try await store.writeRunBatch([Conformance.item("kept"), Conformance.item("deleted")], domain: "com.shop.help", checkpoint: Conformance.checkpoint())
            _ = try await store.finishRun(
                UnitSuccess(unit: Conformance.unit(), finishedAt: Conformance.now, fingerprint: "f", itemCount: 2), deletingItemsCommittedThrough: baseline
            )
            #expect(try await Self.opens(store, "stale").isEmpty, "a stale item's opens go with it")
            #expect(try await Self.opens(store, "kept") == [1, 1])

            try await store.index.deleteAll()
            #expect(try await Self.opens(store, "kept").isEmpty)
            #expect(try await Self.opens(store, "all").isEmpty)
        }
    }
}

extension OpenCountTests {
    /// An item moved to another domain takes its opens along: a purge of the new domain deletes them, one of the old
    /// domain does not.
    @Test(arguments: StoreBackend.allCases)
    func opensFollowAnItemThatMovesDomain(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert([Conformance.item("mover", "com.shop.old"), Conformance.item("stayer", "com.shop.old")])
            try await store.index.recordOpens([Self.tally("mover"), Self.tally("stayer")])
            try await store.index.upsert([Conformance.item("mover", "com.shop.new")])
            _ = try await store.purge(domain: "com.shop.old")
            #expect(try await Self.opens(store, "mover") == [1], "the old domain's purge leaves the moved item's opens")
            #expect(try await Self.opens(store, "stayer").isEmpty)
            _ = try await store.purge(domain: "com.shop.new")
            #expect(try await Self.opens(store, "mover").isEmpty)
        }
    }

    /// Counts older than the retention are deleted; a client inventing queries cannot grow an item's counts past the
    /// cap of a day (its opens still count for the item).
    @Test(arguments: StoreBackend.allCases)
    func countsAreBoundedByDayAndByQueries(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert([Conformance.item("a")])
            try await store.index.recordOpens([Self.tally("a", day: 100), Self.tally("a", day: 200), Self.tally("a", query: "old", day: 100)])
            #expect(try await store.index.deleteUsage(before: 150) == 2)
            #expect(try await store.index.openTallies(identifier: "a").map(\.key.day) == [200])

            let cap = OpenTally.maxQueriesPerItemAndDay
            let invented = (0..<(cap + 20)).map { Self.tally("a", query: "query \($0)", day: 300) }
            // Past the cap within one write, and across writes.
            try await store.index.recordOpens([Self.tally("a", day: 300)] + invented.prefix(cap + 10))
            try await store.index.recordOpens([Self.tally("a", day: 300)] + invented.suffix(10))
            let day300 = try await store.index.openTallies(identifier: "a").filter { $0.key.day == 300 }
            #expect(day300.filter { $0.key.query != nil }.count == cap, "no more queries than the cap, on every store")
            #expect(day300.first { $0.key.query == nil }?.opens == 2, "every open still counts for the item")
            try await store.index.recordOpens([Self.tally("a", query: "query 0", day: 300)])
            #expect(try await store.index.openTallies(identifier: "a").first { $0.key.query == "query 0" && $0.key.day == 300 }?.opens == 2,
                    "a query already counted that day keeps counting")
        }
    }
}
