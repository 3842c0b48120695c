import Foundation
import HostSupport
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// What every store backend must do, run against a real SQLite file and a real PostgreSQL database: the index's
/// Core Spotlight semantics, the search as users see it, and the pass's whole transactional operations.
@Suite("Every store backend")
struct StoreConformanceTests {
    static let now = ISO8601.date(from: "2026-03-01T12:00:00Z")!
    static let clock = FixedWallClock(now)

    static func item(_ id: String, _ domain: String = "com.shop.help", title: String? = nil, description: String? = nil, hint: Int? = nil) -> SearchableItem {
        SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, title: title ?? "Item \(id)", contentDescription: description, rankingHint: hint)
    }

    static func unit(_ key: String = "help", domain: String = "com.shop.help") -> UnitState {
        UnitState(unit: key, source: key, domain: domain)
    }

    static func checkpoint(_ text: String = "c") -> IndexBatch.ClientState {
        IndexBatch.ClientState(batchName: "run/help", data: Data(text.utf8))
    }

    @Test(arguments: StoreBackend.searching)
    func anUpsertReplacesTheItemWithTheSameIdentifierWholly(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            var first = Self.item("a", description: "old text")
            first.keywords = ["one", "two"]
            first.thumbnailData = Data([0, 1, 2, 255])
            try await store.index.upsert([first])
            try await store.index.upsert([Self.item("a", title: "New title")])
            let stored = try #require(try await store.index.item(withIdentifier: "a"))
            #expect(stored.title == "New title")
            #expect(stored.contentDescription == nil, "replaced whole, not merged")
            #expect(stored.keywords.isEmpty && stored.thumbnailData == nil)
            #expect(try await store.index.itemCount(inDomain: "com.shop") == 1)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aDomainHoldsItemsWhenItOrADomainUnderItDoes(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([Self.item("a", "com.shop.help.fr"), Self.item("b", "com.shopping")])
            let asked = ["com.shop", "com.shop.help", "com.shop.help.fr", "com.shop.help.en", "com.sho", "com.shopping", "com", "org.shop"]
            let holding = try await store.index.domainsHoldingItems(among: asked + asked)
            #expect(holding == ["com.shop", "com.shop.help", "com.shop.help.fr", "com.shopping", "com"])
            #expect(try await store.index.domainsHoldingItems(among: []).isEmpty)
            _ = try await store.purge(domain: "com.shop")
            #expect(try await store.index.domainsHoldingItems(among: asked) == ["com.shopping", "com"])
        }
    }

    /// Identifiers are compared byte for byte: the composed and decomposed spellings of "café" are two items, as
    /// two apps that spell them differently mean two things.
    @Test(arguments: StoreBackend.searching)
    func identifiersThatDifferOnlyInUnicodeNormalizationAreTwoItems(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
            try await store.index.upsert([Self.item(composed, title: "Composed"), Self.item(decomposed, title: "Decomposed")])
            #expect(try await store.index.item(withIdentifier: composed)?.title == "Composed")
            #expect(try await store.index.item(withIdentifier: decomposed)?.title == "Decomposed")
            #expect(try await store.index.itemCount(inDomain: "com.shop.help") == 2)
            try await store.index.delete(identifiers: [decomposed])
            #expect(try await store.index.item(withIdentifier: composed)?.title == "Composed")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func anIdentifierSentTwiceInOneBatchKeepsItsLastItem(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let outcome = try await store.index.upsert([Self.item("a", title: "First"), Self.item("b"), Self.item("a", title: "Second")])
            #expect(outcome.upserted == 3, "every item sent counts")
            #expect(try await store.index.item(withIdentifier: "a")?.title == "Second")
            #expect(try await store.index.itemCount(inDomain: "com.shop") == 2)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func fieldsRoundTripExactlyWhateverTheyHold(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            var hostile = Self.item("a'); DROP TABLE item; --", title: "Robert'); DROP TABLE item;-- \\ \" ' ${x} $1 :* & | !")
            hostile.keywords = ["é", "'quoted'", "a,b", "[\"json\"]"]
            hostile.thumbnailData = Data((0...255).map(UInt8.init))
            hostile.contentDescription = "naïve café — 東京 🙂"
            try await store.index.upsert([hostile])
            let stored = try #require(try await store.index.item(withIdentifier: hostile.uniqueIdentifier))
            #expect(stored.title == hostile.title)
            #expect(stored.keywords == hostile.keywords)
            #expect(stored.thumbnailData == hostile.thumbnailData)
            #expect(stored.contentDescription == hostile.contentDescription)
            #expect(try await store.index.search(SearchQuery(text: "robert drop")).hits.map(\.uniqueIdentifier) == [hostile.uniqueIdentifier])
        }
    }

    /// The largest item a plugin may send (every field at its limit, a description of distinct words) is stored and
    /// found: a source cannot make a backend refuse a valid item.
    @Test(arguments: StoreBackend.searching)
    func anItemAtEveryLimitIsStoredAndFound(backend: StoreBackend) async throws {
        let limits = ItemLimits.standard
        var words: [String] = []
        var length = 0
        while length + 12 < limits.maxDescriptionBytes {
            let word = "w\(words.count)x"
            words.append(word)
            length += word.utf8.count + 1
        }
        var item = SearchableItem(
            uniqueIdentifier: String(repeating: "i", count: limits.maxIdentifierBytes), domainIdentifier: "com.shop.help",
            title: String(repeating: "é", count: limits.maxShortTextBytes / 2), contentDescription: words.joined(separator: " ")
        )
        item.keywords = (0..<limits.maxKeywords).map { "k\($0)" + String(repeating: "k", count: limits.maxKeywordBytes - 4) }
        item.thumbnailData = Data(repeating: 0xFF, count: limits.maxThumbnailBytes)
        try item.validate()
        try await backend.withFreshStore(clock: Self.clock) { [item, words] store in
            try await store.index.upsert([item])
            #expect(try await store.index.item(withIdentifier: item.uniqueIdentifier) == item.withDefaultsOf(store: Self.now))
            #expect(try await store.index.search(SearchQuery(text: words.last ?? "")).hits.count == 1)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aDomainIsDeletedWithTheDomainsUnderItButNotItsNeighbours(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.item("a", "com.shop"), Self.item("b", "com.shop.help"), Self.item("c", "com.shop.help.fr"),
                Self.item("d", "com.shopping"), Self.item("e", "com.sho"),
            ])
            #expect(try await store.index.itemCount(inDomain: "com.shop") == 3)
            let outcome = try await store.index.delete(domains: ["com.shop"])
            #expect(outcome.deleted == 3)
            #expect(try await store.index.itemCountsByDomain() == ["com.shopping": 1, "com.sho": 1])
        }
    }

    @Test(arguments: StoreBackend.searching)
    func anInvalidItemRefusesTheWholeBatchAndItsClientState(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let bad = SearchableItem(uniqueIdentifier: "", domainIdentifier: "com.shop.help", title: "No id")
            await #expect(throws: IndexError.self) {
                try await store.index.commit(IndexBatch(operations: [.upsert([Self.item("a"), bad])], clientState: Self.checkpoint()))
            }
            #expect(try await store.index.itemCountsByDomain().isEmpty)
            #expect(try await store.index.lastClientState(batchName: "run/help") == nil)
            try await store.index.commit(IndexBatch(operations: [.upsert([Self.item("a")])], clientState: Self.checkpoint("1")))
            #expect(try await store.index.lastClientState(batchName: "run/help") == Data("1".utf8))
            try await store.index.deleteAll()
            #expect(try await store.index.lastClientState(batchName: "run/help") == nil)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func expiredItemsAreNotFoundAndAreSwept(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            var old = Self.item("old", title: "Cheese old")
            old.expirationDate = Self.now.addingTimeInterval(-1)
            try await store.index.upsert([old, Self.item("new", title: "Cheese new")])
            #expect(try await store.index.search(SearchQuery(text: "chee")).hits.map(\.uniqueIdentifier) == ["new"])
            #expect(try await store.index.sweepExpired() == 1)
            #expect(try await store.index.item(withIdentifier: "old") == nil)
            let fresh = try #require(try await store.index.item(withIdentifier: "new"))
            #expect(fresh.expirationDate == Self.now.addingTimeInterval(30 * 86_400), "the store's time to live")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func searchMatchesPrefixesWithoutAccentsAndRanksTitlesFirst(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.item("desc", title: "Shipping", description: "Délais de livraison"),
                Self.item("title", title: "Délais de livraison"),
                Self.item("other", title: "Retours"),
            ])
            let results = try await store.index.search(SearchQuery(text: "DELAI livr"))
            #expect(results.hits.map(\.uniqueIdentifier) == ["title", "desc"])
            #expect(results.total == 2 && results.totalIsExact)
            #expect(try await store.index.search(SearchQuery(text: "livr", domain: "com.shop.blog")).hits.isEmpty)
            #expect(try await store.index.search(SearchQuery(text: "\"' :* & | ! ( ) NEAR AND")).hits.isEmpty)
            #expect(try await store.index.search(SearchQuery(text: "   ")).total == 0)
        }
    }

    /// Every store splits and folds words as SQLite's tokenizer does, the query's as the stored text's: `й`, `ё`
    /// and kana with dakuten are letters of their own, found as typed in any case (a Greek letter keeps its
    /// breathing, a final `ς` is a `σ`); a Devanagari word, which the tokenizer splits at its vowel signs, is found
    /// whole; Latin accents fold away.
    @Test(arguments: StoreBackend.searching)
    func wordsAreFoundAsTypedInEveryScript(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([
                Self.item("ru", title: "Новый год"), Self.item("yo", title: "Ёлка"), Self.item("ja", title: "ガイドブック"),
                Self.item("hi", title: "हिन्दी समाचार"), Self.item("el", title: "Ὀδυσσεύς"), Self.item("fr", title: "Crème brûlée"),
            ])
            let queries = [
                ("новый", "ru"), ("НОВЫЙ", "ru"), ("нов", "ru"), ("ёлк", "yo"), ("ガイド", "ja"), ("ガイ", "ja"),
                ("हिन्दी", "hi"), ("समाचार", "hi"), ("ὀδυσσεύς", "el"), ("ὀδυσ", "el"), ("creme brul", "fr"),
            ]
            for (query, expected) in queries {
                let found = try await store.index.search(SearchQuery(text: query)).hits.map(\.uniqueIdentifier)
                #expect(found == [expected], "\(query)")
            }
            #expect(try await store.index.search(SearchQuery(text: "новин")).hits.isEmpty)
        }
    }

    /// Highlights are UTF-16 ranges of the whole words that start with a query word, folded as the index folds
    /// them; the snippet is a window of the description around its best match. Every store answers alike.
    @Test(arguments: StoreBackend.searching)
    func hitsSayWhereTheyMatchedInUTF16Ranges(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            var item = Self.item("a", title: "Éclair 😀 café · Café crème", description: "Un café noir, s'il vous plaît.")
            item.displayName = "Bistro"
            item.keywords = ["cafés", "thé"]
            try await store.index.upsert([item])
            let hit = try #require(try await store.index.search(SearchQuery(text: "CAFE ecl")).hits.first)
            let highlights = try #require(hit.highlights)
            // "Éclair 😀 café · Café crème": the emoji is two UTF-16 units.
            #expect(highlights.title == [TextRange(start: 0, end: 6), TextRange(start: 10, end: 14), TextRange(start: 17, end: 21)])
            #expect(highlights.displayName == [])
            #expect(highlights.keywords == [[TextRange(start: 0, end: 5)], []])
            #expect(highlights.contentDescription == [TextRange(start: 3, end: 7)])
            #expect(hit.snippet == SearchSnippet(text: "Un café noir, s'il vous plaît.", highlights: [TextRange(start: 3, end: 7)]))

            let words = (1...100).map { $0 == 60 ? "cheetah" : "w\($0)" }
            try await store.index.upsert([Self.item("long", title: "Long", description: words.joined(separator: " "))])
            let long = try #require(try await store.index.search(SearchQuery(text: "chee")).hits.first)
            let snippet = try #require(long.snippet)
            #expect(snippet.text == "…" + words[44...73].joined(separator: " ") + "…", "centred on the match: \(snippet.text)")
            let range = try #require(snippet.highlights.first)
            let utf16 = Array(snippet.text.utf16)
            #expect(String(decoding: utf16[range.start..<range.end], as: UTF16.self) == "cheetah")
        }
    }

    /// Facets count every match (not just the page) per exact domain, per domain with those under it, and per type.
    @Test(arguments: StoreBackend.searching)
    func facetsCountEveryMatchPerDomainAndType(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            var article = Self.item("fr-1", "com.shop.help.fr", title: "Delivery times")
            article.contentType = "public.article"
            try await store.index.upsert([
                Self.item("en-1", "com.shop.help.en", title: "Delivery"), Self.item("en-2", "com.shop.help.en", title: "Delivered late"),
                article, Self.item("blog", "com.shop.blog", title: "Our delivery vans"), Self.item("other", "com.shop.help.en", title: "Returns"),
            ])
            let results = try await store.index.search(SearchQuery(text: "deliv", limit: 1, facets: [.domain, .domainTree, .type]))
            #expect(results.hits.count == 1 && results.total == 4)
            #expect(results.facets == [
                "domain": ["com.shop.help.en": 2, "com.shop.help.fr": 1, "com.shop.blog": 1],
                "domainTree": ["com": 4, "com.shop": 4, "com.shop.help": 3, "com.shop.help.en": 2, "com.shop.help.fr": 1, "com.shop.blog": 1],
                "type": ["public.item": 3, "public.article": 1],
            ])
            #expect(results.facetsAreExact == true)
            let filtered = try await store.index.search(SearchQuery(text: "deliv", domain: "com.shop.help", facets: [.type]))
            #expect(filtered.facets == ["type": ["public.item": 2, "public.article": 1]], "facets count what the filters let through")
            #expect(try await store.index.search(SearchQuery(text: "deliv")).facets == nil)
        }
    }

    /// Past ``SearchFacet/countedMatches`` the counts are of the first matches and say so.
    @Test(arguments: StoreBackend.searching)
    func facetsStopCountingAtTheLimitAndSaySo(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let items = (0...SearchFacet.countedMatches).map { Self.item("i\($0)", $0 % 2 == 0 ? "com.a" : "com.b", title: "Widget \($0)") }
            for batch in stride(from: 0, to: items.count, by: 2_000) {
                try await store.index.upsert(Array(items[batch..<min(batch + 2_000, items.count)]))
            }
            let results = try await store.index.search(SearchQuery(text: "widget", facets: [.domain]))
            #expect(results.facetsAreExact == false)
            #expect(results.facets?["domain"]?.values.reduce(0, +) == SearchFacet.countedMatches)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aTitleMatchBehindManyDescriptionMatchesRanksFirstAndTheTotalIsALowerBound(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            var items = (0..<150).map { Self.item("item-\($0)", description: "a zebra in the text") }
            items.append(Self.item("zebra", title: "Zebra"))
            try await store.index.upsert(items)
            let results = try await store.index.search(SearchQuery(text: "zeb", limit: 3))
            #expect(results.hits.first?.uniqueIdentifier == "zebra")
            #expect(results.total == 100 && !results.totalIsExact)
        }
    }

    /// Held identifiers are compared by bytes: the composed "café" another domain holds does not keep out the
    /// decomposed one, which is another identifier to the index.
    @Test(arguments: StoreBackend.searching)
    func aRunBatchLeavesOutOnlyTheExactIdentifiersAnotherDomainHolds(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
            try await store.index.upsert([Self.item(composed, "com.shop.blog")])
            let outcome = try await store.writeRunBatch(
                [Self.item(decomposed), Self.item(composed)], domain: "com.shop.help", checkpoint: Self.checkpoint()
            )
            #expect(outcome.upserted == 1)
            #expect(outcome.taken.map { Array($0.identifier.utf8) } == [Array(composed.utf8)])
            #expect(try await store.index.item(withIdentifier: decomposed)?.domainIdentifier == "com.shop.help")
            #expect(try await store.index.item(withIdentifier: composed)?.domainIdentifier == "com.shop.blog")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aRunBatchLeavesOutIdentifiersAnotherDomainHolds(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([Self.item("taken", "com.shop.blog")])
            let outcome = try await store.writeRunBatch([Self.item("taken"), Self.item("mine")], domain: "com.shop.help", checkpoint: Self.checkpoint())
            #expect(outcome.upserted == 1)
            #expect(outcome.taken == [HeldIdentifier(identifier: "taken", domain: "com.shop.blog")])
            #expect(try await store.index.item(withIdentifier: "taken")?.domainIdentifier == "com.shop.blog")
            #expect(try await store.index.lastClientState(batchName: "run/help") == Data("c".utf8))
        }
    }

    @Test(arguments: StoreBackend.searching)
    func finishingARunDeletesWhatItDidNotWriteAndRecordsTheSuccessTogether(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([Self.item("stale"), Self.item("kept")])
            try await store.index.upsert([Self.item("elsewhere", "com.shop.blog")])
            let baseline = try await store.index.lastCommitNumber()
            try await store.recordAttemptStart(Self.unit(), at: Self.now, forced: false)
            #expect(try await store.units()["help"]?.lastResult == .running)
            _ = try await store.writeRunBatch([Self.item("kept"), Self.item("new")], domain: "com.shop.help", checkpoint: Self.checkpoint())
            #expect(try await store.index.itemCount(inDomain: "com.shop.help", committedThrough: baseline) == 1)
            let finished = Self.now.addingTimeInterval(60)
            #expect(try await store.history(source: nil, limit: 10).isEmpty)
            let line = RunRecord(
                unit: "help", source: "help", domain: "com.shop.help", startedAt: Self.now, finishedAt: finished, decision: .reindexed,
                reason: "due", indexed: 2, deleted: 0, rejected: 0, error: nil, forced: false
            )
            let deleted = try await store.finishRun(
                UnitSuccess(unit: Self.unit(), finishedAt: finished, fingerprint: "f1", itemCount: 2, history: line), deletingItemsCommittedThrough: baseline
            )
            #expect(deleted == 1)
            #expect(try await store.index.itemCountsByDomain() == ["com.shop.help": 2, "com.shop.blog": 1])
            let state = try #require(try await store.unit("help"))
            #expect(state == (try await store.units()["help"]))
            #expect(try await store.unit("nothing") == nil)
            #expect(state.lastResult == .succeeded && state.lastSuccessAt == finished && state.fingerprint == "f1" && state.itemCount == 2)
            #expect(state.runner == nil)
            // Its line in the history came with it, the sweep's deletion counted.
            var swept = line
            swept.deleted = 1
            #expect(try await store.history(source: nil, limit: 10) == [swept])
        }
    }

    @Test(arguments: StoreBackend.searching)
    func anAttemptsEndIsRecordedWithItsLineInTheHistory(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.recordAttemptStart(Self.unit(), at: Self.now, forced: false)
            let line = RunRecord(
                unit: "help", source: "help", domain: "com.shop.help", startedAt: Self.now, finishedAt: Self.now, decision: .failed,
                reason: "due", indexed: 3, deleted: 0, rejected: 1, error: "the plugin failed", forced: false
            )
            try await store.recordFailure(Self.unit(), error: "the plugin failed", failures: 1, retryAt: Self.now.addingTimeInterval(60), history: line)
            #expect(try await store.unit("help")?.lastResult == .failed)
            #expect(try await store.history(source: nil, limit: 10) == [line])
        }
    }

    @Test(arguments: StoreBackend.searching)
    func aPurgeDeletesTheDomainAndForgetsTheSuccessesUnderIt(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert([Self.item("a"), Self.item("b", "com.shop.help.fr"), Self.item("c", "com.shop.blog")])
            for unit in [Self.unit(), Self.unit("help/fr", domain: "com.shop.help.fr"), Self.unit("blog", domain: "com.shop.blog")] {
                _ = try await store.finishRun(UnitSuccess(unit: unit, finishedAt: Self.now, fingerprint: "f", itemCount: 1), deletingItemsCommittedThrough: 0)
            }
            #expect(try await store.purge(domain: "com.shop.help") == 2)
            let units = try await store.units()
            #expect(units["help"]?.lastResult == .purged && units["help"]?.lastSuccessAt == nil)
            #expect(units["help/fr"]?.lastResult == .purged)
            #expect(units["blog"]?.lastResult == .succeeded && units["blog"]?.lastSuccessAt == Self.now)
            #expect(try await store.index.itemCountsByDomain() == ["com.shop.blog": 1])
        }
    }

    @Test(arguments: StoreBackend.searching)
    func failuresAndInterruptionsAreRemembered(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.recordAttemptStart(Self.unit(), at: Self.now, forced: true)
            let interrupted = try await store.markInterrupted()
            #expect(interrupted.map(\.unit) == ["help"])
            var state = try #require(try await store.units()["help"])
            #expect(state.lastResult == .interrupted && state.forcedRun && state.lastError == UnitState.interruptedError)
            #expect(try await store.markInterrupted().isEmpty)
            let retry = Self.now.addingTimeInterval(600)
            try await store.recordFailure(Self.unit(), error: "the feed said no", failures: 3, retryAt: retry)
            state = try #require(try await store.units()["help"])
            #expect(state.lastResult == .failed && state.failures == 3 && state.retryAt == retry && state.lastError == "the feed said no")
            #expect(!state.forcedRun)
        }
    }

    @Test(arguments: StoreBackend.searching)
    func theHistoryKeepsTheLastRunsNewestFirstAndKnowsThePeak(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock, historyLength: 3) { store in
            for (day, indexed) in [10, 40, 30, 20].enumerated() {
                let started = Self.now.addingTimeInterval(Double(day) * 86_400)
                try await store.append(RunRecord(
                    unit: "help", source: "help", domain: "com.shop.help", startedAt: started, finishedAt: started.addingTimeInterval(5),
                    decision: .reindexed, reason: "due", indexed: indexed, deleted: 0, rejected: 0, error: nil, forced: false
                ))
            }
            try await store.append(RunRecord(
                unit: "blog", source: "blog", domain: "com.shop.blog", startedAt: Self.now, finishedAt: Self.now,
                decision: .notDue, reason: "not due", indexed: 0, deleted: 0, rejected: 0, error: nil, forced: false
            ))
            let runs = try await store.history(source: nil, limit: 10)
            #expect(runs.map(\.source) == ["blog", "help", "help"], "three kept, newest first")
            #expect(runs.first?.decision == .notDue)
            #expect(try await store.history(source: "help", limit: 1).map(\.indexed) == [20])
            #expect(try await store.history(source: nil, unit: "help", limit: 10).map(\.indexed) == [20, 30])
            #expect(try await store.history(source: "blog", unit: "help", limit: 10).isEmpty)
            #expect(try await store.peakItemCount(unit: "help", since: Self.now) == 30)
            #expect(try await store.peakItemCount(unit: "nothing", since: Self.now) == nil)
        }
    }
}

extension SearchableItem {
    /// This item as a store gives it back: with the store's expiration when it had none.
    func withDefaultsOf(store now: Date) -> SearchableItem {
        var stored = self
        stored.expirationDate = expirationDate ?? now.addingTimeInterval(30 * 86_400)
        return stored
    }
}
