import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Synonyms found alike by every store: typed words that are a phrase of a group also find items holding another
/// phrase of it (each of its words whole), ranked below the items matching what was typed.
@Suite("Synonyms on every store")
struct SynonymTests {
    static let clock = StoreConformanceTests.clock
    static let synonyms = Synonyms(groups: [["tee", "T-shirt"], ["NYC", "New York"]])

    static let items = [
        TypoToleranceTests.item("tshirt", "Classic T-shirt"),
        TypoToleranceTests.item("golf", "Tee time at the golf club"),
        TypoToleranceTests.item("teeth", "Teeth whitening"),
        TypoToleranceTests.item("guide", "New York guide", hint: 100),
        TypoToleranceTests.item("subway", "NYC subway map"),
        TypoToleranceTests.item("newport", "New Yorkshire pudding", description: "Not from York"),
    ]

    static func found(_ store: any SchedulerStore, _ text: String, synonyms: Synonyms = synonyms) async throws -> [String] {
        try await store.index.search(SearchQuery(text: text, synonyms: synonyms)).hits.map(\.uniqueIdentifier)
    }

    @Test(arguments: StoreBackend.searching)
    func aWordFindsItsSynonymsBelowWhatWasTyped(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            // `tee` as typed (a whole word, then a prefix), then its synonym's words, whole: not "Teeth" through `t`.
            #expect(try await Self.found(store, "tee") == ["golf", "teeth", "tshirt"])
            #expect(try await Self.found(store, "T-shirt") == ["tshirt", "golf"])
            #expect(try await Self.found(store, "t shirt") == ["tshirt", "golf"], "a phrase is its words, however joined")
            // A phrase typed finds the word; the word finds the phrase's words whole ("Yorkshire" is not "York").
            #expect(try await Self.found(store, "new york") == ["guide", "newport", "subway"])
            #expect(try await Self.found(store, "nyc") == ["subway", "guide", "newport"])
            // The other words typed still have to match.
            #expect(try await Self.found(store, "new york subway") == ["subway"])
            #expect(try await Self.found(store, "nyc guide") == ["guide"])
            let results = try await store.index.search(SearchQuery(text: "tee", synonyms: Self.synonyms))
            #expect(results.total == 3 && results.totalIsExact)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func withoutSynonymsOnlyWhatWasTypedIsFound(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            #expect(try await Self.found(store, "tee", synonyms: .none) == ["golf", "teeth"])
            #expect(try await Self.found(store, "nyc", synonyms: .none) == ["subway"])
            // A prefix of a phrase is not the phrase: `ny` is being typed.
            #expect(try await Self.found(store, "ny") == ["subway"])
        }
    }

    @Test(arguments: StoreBackend.searching)
    func theSynonymsWordsAreHighlighted(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            let hit = try #require(try await store.index.search(SearchQuery(text: "tee", synonyms: Self.synonyms)).hits.last)
            #expect(hit.uniqueIdentifier == "tshirt")
            #expect(hit.highlights?.title == [TextRange(start: 8, end: 9), TextRange(start: 10, end: 15)])
        }
    }

    /// Sixteen typed words, each a phrase of a group of sixteen phrases of eight words: the query stays one
    /// bounded expression every store accepts.
    @Test(arguments: StoreBackend.searching)
    func theLargestSynonymQueryIsAccepted(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            let groups = (0..<SearchTerms.maxTerms).map { group in
                ["w\(group)"] + (1..<Synonyms.maxPhrasesPerGroup).map { phrase in
                    (0..<Synonyms.maxPhraseWords).map { "p\(group)x\(phrase)y\($0)" }.joined(separator: " ")
                }
            }
            let text = (0..<SearchTerms.maxTerms).map { "w\($0)" }.joined(separator: " ")
            #expect(try await Self.found(store, text, synonyms: Synonyms(groups: groups)).isEmpty)
            #expect(try await Self.found(store, "nyc " + text, synonyms: Synonyms(groups: groups + [["nyc", "new york"]])).isEmpty)
        }
    }
}
