import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// What people open lifts results on every store, by the same rule: within a tier, bounded, fading, and more for
/// the query it was opened from.
@Suite("Popularity")
struct PopularityTests {
    typealias Conformance = StoreConformanceTests

    static let today = Int(Conformance.now.timeIntervalSince1970 / 86_400)

    static func open(_ identifier: String, query: String? = nil, times: Int, daysAgo: Int = 0) -> [OpenTally] {
        [OpenTally(key: OpenTally.Key(day: today - daysAgo, identifier: identifier, query: nil), opens: times)]
            + (query.map { [OpenTally(key: OpenTally.Key(day: today - daysAgo, identifier: identifier, query: $0), opens: times)] } ?? [])
    }

    static func order(_ store: any SchedulerStore, _ text: String, popularity: Bool = true) async throws -> [String] {
        let query = try SearchQuery(text: text, popularityHalfLife: popularity ? Popularity.standardHalfLife : nil)
        return try await store.index.search(query).hits.map(\.uniqueIdentifier)
    }

    static let corpus = [
        SearchableItem(uniqueIdentifier: "boards", domainIdentifier: "com.shop.help", title: "Cheese boards"),
        SearchableItem(uniqueIdentifier: "plates", domainIdentifier: "com.shop.help", title: "Cheese plates"),
        SearchableItem(uniqueIdentifier: "cheese", domainIdentifier: "com.shop.help", title: "Cheese"),
        SearchableItem(uniqueIdentifier: "wine", domainIdentifier: "com.shop.help", title: "Wine list", contentDescription: "Pairs with cheese."),
    ]

    @Test(arguments: StoreBackend.searching)
    func aFloodLiftsAnItemWithinItsTierOnly(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert(Self.corpus)
            #expect(try await Self.order(store, "chees") == ["cheese", "boards", "plates", "wine"])
            try await store.index.recordOpens(Self.open("plates", times: 10_000) + Self.open("wine", times: 10_000))

            #expect(try await Self.order(store, "chees") == ["plates", "cheese", "boards", "wine"],
                    "a title match opened often passes those matching alike; a description match never passes a title match")
            #expect(try await Self.order(store, "cheese") == ["cheese", "plates", "boards", "wine"], "an exact title always comes first")
            #expect(try await Self.order(store, "chees", popularity: false) == ["cheese", "boards", "plates", "wine"], "search.popularity: false")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aQuerysOwnOpensWeighMoreAndOpensFade(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert(Array(Self.corpus.prefix(2)))
            // "plates": two opens from other queries; "boards": one, from this very query (folded as typed words are).
            try await store.index.recordOpens(Self.open("plates", times: 2) + Self.open("boards", query: "chee", times: 1))
            #expect(try await Self.order(store, "CHÉE") == ["boards", "plates"])
            #expect(try await Self.order(store, "cheese") == ["plates", "boards"], "another query: only the item's opens count")

            // Opens fade by half every 14 days: 30 opens 70 days ago weigh less than one today; past 8 half-lives, nothing.
            try await store.index.recordOpens(Self.open("boards", times: 30, daysAgo: 70))
            #expect(try await Self.order(store, "cheese") == ["plates", "boards"])
            try await store.index.deleteUsage(before: Self.today + 1)
            try await store.index.upsert([Self.corpus[1]])
            try await store.index.recordOpens(Self.open("plates", times: 1_000_000, daysAgo: 113))
            #expect(try await Self.order(store, "cheese") == ["boards", "plates"], "opens older than 8 half-lives are not read")
        }
    }
}
