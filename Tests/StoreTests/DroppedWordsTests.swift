import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// A search whose words match nothing together drops its last words, one at a time, up to three, until something
/// matches; alike on every store. Whenever some item matches every word, every hit does.
@Suite("Last words dropped when nothing matches them all, on every store")
struct DroppedWordsTests {
    static let clock = StoreConformanceTests.clock

    static let items = [
        TypoToleranceTests.item("boards", "Cheese boards"),
        TypoToleranceTests.item("knives", "Cheese knives"),
        SearchableItem(uniqueIdentifier: "wine", domainIdentifier: "com.shop.wine", title: "Wine and cheese"),
        TypoToleranceTests.item("other", "Returns"),
    ]

    static func found(_ store: any SchedulerStore, _ text: String) async throws -> [String] {
        try await store.index.search(SearchQuery(text: text)).hits.map(\.uniqueIdentifier)
    }

    @Test(arguments: StoreBackend.searching)
    func theLastWordsAreDroppedOnlyWhenNothingMatchesThemAll(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            #expect(try await Self.found(store, "cheese knives") == ["knives"], "some item matches every word: only those")
            #expect(try await Self.found(store, "cheese boards xyzzy") == ["boards"])
            #expect(try await Self.found(store, "cheese xyzzy qqq") == ["boards", "knives", "wine"])
            #expect(try await Self.found(store, "cheese w1 w2 w3 w4").isEmpty, "three words dropped at most")
            #expect(try await Self.found(store, "xyzzy cheese").isEmpty, "the first word is never dropped")
            #expect(try await Self.found(store, "chese boards xyzzy") == ["boards"], "typos corrected in the words kept")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func theTotalFacetsAndHighlightsAreThoseOfTheWordsKept(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            let results = try await store.index.search(SearchQuery(text: "cheese xyzzy", facets: [.domain]))
            #expect(results.total == 3 && results.totalIsExact)
            #expect(results.facets?["domain"] == ["com.shop.help": 2, "com.shop.wine": 1])
            #expect(results.hits.first?.highlights?.title == [TextRange(start: 0, end: 6)])
        }
    }
}
