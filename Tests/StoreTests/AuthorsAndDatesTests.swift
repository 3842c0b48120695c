import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Core Spotlight's `authorNames`, `contentCreationDate`, `contentModificationDate` and `relatedUniqueIdentifier`:
/// stored, returned, authors searched, and newest-first search; alike on every store.
@Suite("Authors, content dates, related items and newest first, on every store")
struct AuthorsAndDatesTests {
    static let clock = StoreConformanceTests.clock

    static func day(_ text: String) -> Date { ISO8601.date(from: text + "T12:00:00Z")! }

    static func post(_ id: String, _ title: String, created: String?, authors: [String] = [], description: String? = nil) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: id, domainIdentifier: "com.blog", title: title, contentDescription: description, authorNames: authors,
            contentCreationDate: created.map(day)
        )
    }

    static func ids(_ store: any SchedulerStore, _ text: String, sort: SearchSort = .newest, limit: Int = 20, offset: Int = 0) async throws -> [String] {
        try await store.index.search(SearchQuery(text: text, limit: limit, offset: offset, sort: sort)).hits.map(\.uniqueIdentifier)
    }

    @Test(arguments: StoreBackend.searching)
    func theFieldsAreStoredAndReturnedByALookUpAndASearch(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let created = try #require(ISO8601.date(from: "2026-01-02T03:04:05.25Z"))
            let modified = try #require(ISO8601.date(from: "2026-02-01T00:00:00Z"))
            try await store.index.upsert([
                SearchableItem(
                    uniqueIdentifier: "p1#week", domainIdentifier: "com.blog", title: "Cheese week", authorNames: ["Ana", "Bo Berg"],
                    contentCreationDate: created, contentModificationDate: modified, relatedUniqueIdentifier: "p1"
                ),
                Self.post("p2", "Cheese month", created: nil),
            ])
            let item = try #require(try await store.index.item(withIdentifier: "p1#week"))
            #expect(item.authorNames == ["Ana", "Bo Berg"] && item.relatedUniqueIdentifier == "p1")
            #expect(item.contentCreationDate == created, "to the quarter second")
            #expect(item.contentModificationDate == modified)
            let bare = try #require(try await store.index.item(withIdentifier: "p2"))
            #expect(bare.authorNames == [] && bare.contentCreationDate == nil && bare.contentModificationDate == nil)

            let hits = try await store.index.search(SearchQuery(text: "cheese")).hits
            let hit = try #require(hits.first { $0.uniqueIdentifier == "p1#week" })
            #expect(hit.authorNames == ["Ana", "Bo Berg"] && hit.contentCreationDate == created && hit.contentModificationDate == modified)
            #expect(hit.relatedUniqueIdentifier == "p1")
            let json = String(decoding: try JSONEncoder().encode(hits.first { $0.uniqueIdentifier == "p2" }), as: UTF8.self)
            #expect(json.contains("\"authorNames\":[]") && json.contains("\"contentCreationDate\":null") && json.contains("\"relatedUniqueIdentifier\":null"), "every key is present: \(json)")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aChangedDateOrAuthorIsWrittenAndTheItemKeepsItsPlace(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([Self.post("p1", "Cheese", created: "2026-01-01", authors: ["Ana"]), Self.post("p2", "Cheese", created: "2026-01-01")])
            #expect(try await Self.ids(store, "cheese", sort: .relevance) == ["p1", "p2"], "equal items: the one indexed first")
            try await store.index.upsert([Self.post("p1", "Cheese", created: "2026-01-01", authors: ["Ana"]).with { $0.contentModificationDate = Self.day("2026-02-01") }])
            #expect(try await store.index.item(withIdentifier: "p1")?.contentModificationDate == Self.day("2026-02-01"), "a modification date alone is a change")
            try await store.index.upsert([Self.post("p1", "Cheese", created: "2026-03-01", authors: ["Bo"])])
            let item = try #require(try await store.index.item(withIdentifier: "p1"))
            #expect(item.contentCreationDate == Self.day("2026-03-01") && item.authorNames == ["Bo"] && item.contentModificationDate == nil)
            #expect(try await Self.ids(store, "ana", sort: .relevance).isEmpty, "the old author's words are gone from the index")
            #expect(try await Self.ids(store, "bo", sort: .relevance) == ["p1"])
            #expect(try await Self.ids(store, "cheese", sort: .relevance) == ["p1", "p2"], "rewritten with the same hint, it keeps its place")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aDatesItemsPastTheScoredTiesFollowInPriorityOrder(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            // Undated: one date group. The strong match comes after the ties that are ranked, so it is not lifted.
            let ties = NewestOrder.maxScoredTies
            var items = (0..<ties).map { Self.post("weak\($0)", "Notes \($0)", created: nil, description: "about cheese") }
            items.insert(Self.post("strong-early", "Cheese", created: nil), at: 10)
            items += [Self.post("strong-late", "Cheese", created: nil), Self.post("weak-late", "Notes", created: nil, description: "about cheese")]
            try await store.index.upsert(items)
            #expect(try await Self.ids(store, "cheese", limit: 2) == ["strong-early", "weak0"], "the first ties are ranked by relevance")
            let tail = try await Self.ids(store, "cheese", limit: 3, offset: ties)
            #expect(tail == ["weak\(ties - 1)", "strong-late", "weak-late"], "past them, priority order")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func authorsAreSearchedBelowTitlesAndAboveDescriptionsHighlightedAndCorrected(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.post("mentioned", "A review", created: nil, description: "A long text that mentions Knuth once among many other words"),
                Self.post("written", "Literate programs", created: nil, authors: ["Donald Knuth"]),
                Self.post("titled", "Knuth", created: nil),
            ])
            #expect(try await Self.ids(store, "knuth", sort: .relevance) == ["titled", "written", "mentioned"])
            let hit = try #require(try await store.index.search(SearchQuery(text: "knu")).hits.first { $0.uniqueIdentifier == "written" })
            #expect(hit.highlights?.authorNames == [[TextRange(start: 7, end: 12)]], "the author's word, in the author's list")
            #expect(try await Self.ids(store, "donlad", sort: .relevance) == ["written"], "an author's name is a word typos are corrected to")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func newestFirstOrdersByCreationDateUndatedLastAndEqualDatesByRelevance(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.post("old", "Cheese of the year", created: "2020-05-01"),
                Self.post("undated-weak", "Notes", created: nil, description: "about cheese"),
                Self.post("new", "Cheese news", created: "2026-05-01"),
                Self.post("tie-weak", "Pairings", created: "2024-01-01", description: "wine and cheese"),
                Self.post("tie-strong", "Cheese", created: "2024-01-01"),
                Self.post("undated-strong", "Cheese boards", created: nil),
                Self.post("other", "Wine", created: "2027-01-01"),
            ])
            let newest = ["new", "tie-strong", "tie-weak", "old", "undated-strong", "undated-weak"]
            #expect(try await Self.ids(store, "cheese") == newest)
            #expect(try await Self.ids(store, "cheese", sort: .relevance).first == "tie-strong", "relevance stays the default")
            // Every page cuts the same order, ties included.
            var paged: [String] = []
            for offset in stride(from: 0, to: 6, by: 2) { paged += try await Self.ids(store, "cheese", limit: 2, offset: offset) }
            #expect(paged == newest)
            #expect(try await Self.ids(store, "cheese", limit: 1, offset: 2) == ["tie-weak"])
            let results = try await store.index.search(SearchQuery(text: "cheese", limit: 2, sort: .newest))
            #expect(results.total == 6 && results.totalIsExact)
            #expect(results.hits.allSatisfy { $0.score > 0 }, "hits carry their relevance score")
            #expect(try await Self.ids(store, "chese") == newest, "a typo is forgiven as in relevance order")
            #expect(try await Self.ids(store, "xyzzy").isEmpty)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func pastTheConsideredMatchesTheTotalSaysSo(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let count = SearchSort.newestConsideredMatches + 5
            let items = (0..<count).map { index in
                Self.post("p\(index)", "Cheese \(index)", created: nil).with { $0.contentCreationDate = Self.day("2020-01-01").addingTimeInterval(Double(index) * 60) }
            }
            for start in stride(from: 0, to: count, by: 2_000) { try await store.index.upsert(Array(items[start..<min(start + 2_000, count)])) }
            let results = try await store.index.search(SearchQuery(text: "cheese", limit: 3, sort: .newest))
            #expect(results.total == SearchSort.newestConsideredMatches && !results.totalIsExact)
            let considered = SearchSort.newestConsideredMatches
            #expect(results.hits.map(\.uniqueIdentifier) == ["p\(considered - 1)", "p\(considered - 2)", "p\(considered - 3)"],
                    "the newest of the first matches in priority order")
        }
    }
}

extension SearchableItem {
    /// This item changed by `change`.
    func with(_ change: (inout SearchableItem) -> Void) -> SearchableItem {
        var item = self
        change(&item)
        return item
    }
}
