import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Typos forgiven alike by every store: a word of 5 letters or more may hold one typo, of 9 or more two, when
/// the words as typed find fewer items than the page holds; exact and prefix matches rank first, fewer typos
/// above more.
@Suite("Typo tolerance on every store")
struct TypoToleranceTests {
    static let clock = StoreConformanceTests.clock

    static func item(_ id: String, _ title: String, hint: Int? = nil, description: String? = nil) -> SearchableItem {
        SearchableItem(uniqueIdentifier: id, domainIdentifier: "com.shop.help", title: title, contentDescription: description, rankingHint: hint)
    }

    static func found(_ store: any SchedulerStore, _ text: String, limit: Int = 20, typos: TypoTolerance = .standard) async throws -> [String] {
        try await store.index.search(SearchQuery(text: text, limit: limit, typos: typos)).hits.map(\.uniqueIdentifier)
    }

    @Test(arguments: StoreBackend.searching)
    func aWordWithATypoFindsTheWordMeant(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.item("delivery", "Délais de livraison"), Self.item("jekyll", "Jekyll 4.4.0 Released"),
                Self.item("ruby", "Ruby news"), Self.item("other", "Retours et échanges"),
            ])
            #expect(try await Self.found(store, "livriason") == ["delivery"], "two letters swapped")
            #expect(try await Self.found(store, "delais livraisn") == ["delivery"], "a letter left out")
            #expect(try await Self.found(store, "DELAIS LIVRAIZON") == ["delivery"], "a letter replaced, any case")
            #expect(try await Self.found(store, "jekyl relased") == ["jekyll"], "the word being typed, a prefix with a typo")
            #expect(try await Self.found(store, "rubi").isEmpty, "4 letters: no typo")
            #expect(try await Self.found(store, "kivraison").isEmpty, "the first letter is taken as typed")
            #expect(try await Self.found(store, "lavriason") == ["delivery"], "two typos from 9 letters")
            #expect(try await Self.found(store, "lavriasonz").isEmpty, "not three")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func exactMatchesRankFirstThenFewerTypos(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.item("two", "Chocolats noirs", hint: 100),
                Self.item("one", "Chocolate cake", hint: 50),
                Self.item("exact", "Chocolatte recipes"),
            ])
            // "chocolatte": as typed in one title, one typo from "chocolate", two from "chocolats".
            #expect(try await Self.found(store, "chocolatte") == ["exact", "one", "two"])
            let results = try await store.index.search(SearchQuery(text: "chocolatte"))
            #expect(results.total == 3 && results.totalIsExact)
            // Every page counts the same matches.
            #expect(try await Self.found(store, "chocolatte", limit: 1) == ["exact"])
            #expect(try await store.index.search(SearchQuery(text: "chocolatte", limit: 1, offset: 2)).hits.map(\.uniqueIdentifier) == ["two"])
        }
    }

    /// An item that holds the word as typed anywhere ranks above items matched through a typo, whatever their
    /// scores: here the typo'd word is in its description, a correction in its title.
    @Test(arguments: StoreBackend.searching)
    func anItemHoldingTheWordAsTypedAnywhereRanksAboveTypoMatches(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.item("typo", "Released", hint: 100),
                Self.item("asTyped", "Released", description: "Notes as relased"),
            ])
            #expect(try await Self.found(store, "relased") == ["asTyped", "typo"])
        }
    }

    /// With 20 matches as typed or more, no typo is looked for, on any page.
    @Test(arguments: StoreBackend.searching)
    func enoughMatchesAsTypedLookForNoTypo(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert((1...CandidateRanking.fewMatches).map { Self.item("t\($0)", "Chocolatte \($0)") } + [Self.item("cake", "Chocolate cake")])
            for offset in [0, 20] {
                let results = try await store.index.search(SearchQuery(text: "chocolatte", limit: 5, offset: offset))
                #expect(results.total == CandidateRanking.fewMatches && !results.hits.map(\.uniqueIdentifier).contains("cake"))
            }
        }
    }

    /// A letter followed by a thousand marks the tokenizer keeps is one word, cut to 64 characters like any other:
    /// stored, searched and corrected alike by every store, without error.
    @Test(arguments: StoreBackend.searching)
    func aWordOfALetterAndAThousandMarksIsCutLikeAnyOther(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let marks = String(repeating: "\u{1AB0}", count: 1_300)  // 3,900 bytes: past PostgreSQL's 2,046-byte word limit
            try await store.index.upsert([Self.item("marks", "Zebra a\(marks) end"), Self.item("other", "Zebras")])
            #expect(try await Self.found(store, "a" + marks) == ["marks"])
            #expect(try await Self.found(store, "b" + marks + " zebra").isEmpty)
            #expect(try await Self.found(store, "zebar a" + marks) == ["marks"])
        }
    }

    @Test(arguments: StoreBackend.searching)
    func typosCanBeTurnedOffOrRefusedForSomeWords(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([Self.item("delivery", "Délais de livraison"), Self.item("cake", "Chocolate cake")])
            #expect(try await Self.found(store, "livriason", typos: .off).isEmpty)
            let strict = TypoTolerance(oneTypoFrom: 5, twoTyposFrom: 9, disabledOn: ["LIVRIASON"])
            #expect(try await Self.found(store, "livriason", typos: strict).isEmpty)
            #expect(try await Self.found(store, "chocolatr", typos: strict) == ["cake"])
            let late = TypoTolerance(oneTypoFrom: 10, twoTyposFrom: 12, disabledOn: [])
            #expect(try await Self.found(store, "livriason", typos: late).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aCorrectedWordIsHighlightedAndFoundInDescriptions(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.item("delivery", "Délais de livraison"),
                Self.item("faq", "Questions", description: "Nos délais de livraison sont courts"),
            ])
            let results = try await store.index.search(SearchQuery(text: "livriason"))
            #expect(results.hits.map(\.uniqueIdentifier) == ["delivery", "faq"])
            let title = try #require(results.hits.first?.highlights?.title)
            #expect(title == [TextRange(start: 10, end: 19)], "\(title)")
            #expect(results.hits.last?.snippet?.highlights.isEmpty == false)
        }
    }
}
