import Foundation
import HostSupport
import Indexing
import Logging
import PluginAPI
@testable import PostgresStore
import Store
import StoreSupport
import Testing

/// Once PostgreSQL has statistics of the words, a search of several words looks up its narrowest clause through the
/// GIN index and checks the whole match on the rows it finds (``WordFrequencies``). Which clause is narrowest differs by
/// column; whichever it is, PostgreSQL must answer what the memory twin answers: the same hits, totals and facets.
@Suite("PostgreSQL's searches by their narrowest clause", .timeLimit(.minutes(10)))
struct NarrowestClauseSearchTests {
    static let clock = FixedWallClock(ISO8601.date(from: "2026-03-01T12:00:00Z")!)

    /// One of 40 words starting with `prefix`.
    static func word(_ prefix: String, _ number: Int) -> String {
        let letters = Array("bdfglnprst")
        return prefix + String(letters[number % 10]) + String(letters[(number / 10) % 4]) + "x"
    }

    /// 3,000 items: `ka…` keywords in half of them; `zulu` in 90, 60 of them without any `ka…` word (in the
    /// keywords of some, the description of others); `mo…` words in the descriptions of two thirds and the titles of
    /// 20; `ti…` words in the titles of 300. So `mo ti` is narrowest by `ti` in all the fields together, by `mo` in
    /// the names.
    static var corpus: [SearchableItem] {
        (0..<3_000).map { number in
            var keywords: [String] = []
            var title = "Item \(number)"
            var description = "Entry"
            if number % 4 < 2 { keywords.append(word("ka", number)) }
            if number % 100 == 0 || number % 100 == 2 { keywords.append("zulu") }
            if number % 100 == 50 { description += " zulu" }
            if number % 3 != 0 { description += " " + word("mo", number) }
            if number % 150 == 0 { title += " " + word("mo", number / 150) }
            if number % 10 == 0 { title += " " + word("ti", number / 10) }
            return SearchableItem(
                uniqueIdentifier: "item-\(number)", domainIdentifier: number % 2 == 0 ? "com.words.even" : "com.words.odd",
                title: title, contentDescription: description, keywords: keywords,
                contentCreationDate: Self.clock.now().addingTimeInterval(Double(number % 97) * -3_600)
            )
        }
    }

    static let queries = [
        "ka zulu", "zulu ka", "ti zulu", "mo ti", "ti mo", "ka mo ti", "kab zulu", "zulo ka", "ka mob", "item ti", "item zulu mo", "entry ka",
        "entry ka mo", "qqq", "ka qqq", "zulu kab ti", "tango mo",
    ]

    /// `zulu ka…` stands for `tango` (a word no item holds) and the other way round.
    static let synonyms = Synonyms(groups: [["zulu kab", "tango"]])

    /// A search's hits, total and facet counts, as a user sees them.
    struct Answer: Equatable, CustomStringConvertible {
        var hits: [String]
        var total: Int
        var totalIsExact: Bool
        var facets: [String: [String: Int]]?

        var description: String { "\(total)\(totalIsExact ? "" : "+") \(hits) \(facets ?? [:])" }
    }

    static func answers(_ store: any SchedulerStore) async throws -> [String: Answer] {
        var answers: [String: Answer] = [:]
        for text in queries {
            for (name, query) in [
                ("page 1", try SearchQuery(text: text, limit: 20)),
                ("page 3", try SearchQuery(text: text, limit: 20, offset: 40)),
                ("facets", try SearchQuery(text: text, limit: 5, facets: [.domain])),
                ("newest", try SearchQuery(text: text, limit: 10, sort: .newest)),
                // A domain's rows may be few: a walk is left to the planner.
                ("one domain", try SearchQuery(text: text, domain: "com.words.odd", limit: 20)),
                // A synonym phrase nests its words under one clause of the match.
                ("synonyms", try SearchQuery(text: text, limit: 20, synonyms: Self.synonyms)),
            ] {
                let results = try await store.index.search(query)
                answers["\(text), \(name)"] = Answer(
                    hits: results.hits.map(\.uniqueIdentifier), total: results.total, totalIsExact: results.totalIsExact, facets: results.facets
                )
            }
        }
        return answers
    }

    /// Writes the corpus, and has PostgreSQL gather its statistics before the first search reads them.
    static func filled(_ store: any SchedulerStore) async throws {
        let corpus = corpus
        for start in stride(from: 0, to: corpus.count, by: 1_000) {
            try await store.index.upsert(Array(corpus[start..<min(start + 1_000, corpus.count)]))
        }
        if let index = store.index as? PostgresSearchIndex {
            try await index.client.checkedQuery("ANALYZE item", logger: index.logger)
        }
    }

    @Test func eachColumnIsSearchedTheWayItsStatisticsMakeCheapest() async throws {
        try await StoreBackend.postgres.withFreshStore(clock: Self.clock) { store in
            let index = try #require(store.index as? PostgresSearchIndex)
            func lookup(_ text: String, _ column: String, _ frequencies: WordFrequencies) -> MatchLookup {
                frequencies.lookup(of: SearchTerms(text).match, in: column, limit: 101)
            }
            // Before any statistics, the planner chooses.
            let before = try await WordFrequencies.read(index.client, logger: index.logger)
            #expect(lookup("ka zulu", "words_all", before) == .plannerChooses)

            try await Self.filled(store)
            let frequencies = await index.wordFrequencies.current()
            // Words in most rows: walk the table, the first rows match.
            #expect(lookup("entry ka", "words_all", frequencies) == .walk)
            // A rare word beside a common one: look the rare one up alone.
            #expect(lookup("ka zulu", "words_all", frequencies) == .lookUp(.prefix("zulu")))
            // Two rare enough words: both looked up (the whole match).
            #expect(lookup("ti zulu", "words_all", frequencies) == .lookUp(SearchTerms("ti zulu").match!))
            #expect(lookup("ti zulu ka", "words_all", frequencies) == .lookUp(.all([.prefix("zulu"), .prefix("ti")])))
            // Which word is rarer depends on the column: `mo…` words are in most descriptions but in few names.
            #expect(lookup("mo ti", "words_names", frequencies) == .lookUp(.prefix("mo")))
            // A word found nowhere is looked up, never walked for.
            #expect(lookup("ka qqq", "words_best", frequencies) == .lookUp(.prefix("qqq")))
            #expect(lookup("qqq", "words_all", frequencies) == .lookUp(.prefix("qqq")))
        }
    }

    @Test func postgresAnswersWhatTheMemoryTwinAnswers() async throws {
        let expected = try await StoreBackend.memory.withFreshStore(clock: Self.clock) { store in
            try await Self.filled(store)
            return try await Self.answers(store)
        }
        let postgres = try await StoreBackend.postgres.withFreshStore(clock: Self.clock) { store in
            try await Self.filled(store)
            return try await Self.answers(store)
        }
        // The corpus is as meant: some items hold `zulu` without a `ka…` word, and `mo ti` finds items either way.
        #expect(expected["ka zulu, page 1"].map { ($0.total, $0.totalIsExact) } ?? (0, false) == (30, true))
        #expect(expected["mo ti, page 1"]?.hits.isEmpty == false)
        for key in expected.keys.sorted() {
            #expect(postgres[key] == expected[key], "\(key): PostgreSQL \(postgres[key].map(String.init(describing:)) ?? "none"), the memory twin \(expected[key]!)")
        }
    }
}
