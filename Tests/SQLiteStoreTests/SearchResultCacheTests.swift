import Foundation
@testable import Indexing
import Logging
import PluginAPI
@testable import SQLiteStore
import Testing

/// Searches answered from the result cache must be exactly what a search would compute: after any commit (from
/// this process or another), and once an item it read expires.
@Suite("Reusing recent search results")
struct SearchResultCacheTests {
    @Test func aCommitShowsInTheNextSearch() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("a", title: "Harbour lights")])
        #expect(try await fixture.identifiers("harb") == ["a"])
        #expect(try await fixture.identifiers("harb") == ["a"], "the same answer from the cache")
        try await fixture.index.upsert([item("b", title: "Harbour")])
        #expect(try await fixture.identifiers("harb") == ["b", "a"], "the shorter title ranks first")
        try await fixture.index.delete(identifiers: ["b"])
        #expect(try await fixture.identifiers("HARB") == ["a"], "the same words, folded")
    }

    @Test func anItemThatExpiresLeavesTheResultsWithoutACommit() async throws {
        let fixture = try IndexFixture()
        let soon = fixture.clock.now().addingTimeInterval(60)
        try await fixture.index.upsert([item("short", title: "Harbour ferry", expires: soon), item("long", title: "Harbour master")])
        #expect(try await fixture.identifiers("harbour").sorted() == ["long", "short"])
        fixture.clock.advance(by: 59)
        #expect(try await fixture.identifiers("harbour").sorted() == ["long", "short"])
        fixture.clock.advance(by: 1)
        #expect(try await fixture.identifiers("harbour") == ["long"], "expired at its instant, though nothing was written")
        #expect(try await fixture.index.search(SearchQuery(text: "harbour")).total == 1)
    }

    /// Two processes on one file: each has its own cache, and the other's commits reach it.
    @Test func anotherWriterOfTheFileInvalidatesTheResults() async throws {
        let fixture = try IndexFixture()
        let other = try SQLiteSearchIndex(path: fixture.directory.path("index.sqlite"), clock: fixture.clock, logger: Logger(label: "other"))
        try await fixture.index.upsert([item("a", domain: "com.test.a", title: "Lighthouse")])
        #expect(try await fixture.identifiers("light") == ["a"])
        try await other.upsert([item("b", domain: "com.test.b", title: "Light")])
        #expect(try await fixture.identifiers("light") == ["b", "a"])
        try await other.delete(domains: ["com.test.b"])
        #expect(try await fixture.identifiers("light") == ["a"], "a purge by the other writer hides its items at once")
        #expect(try await fixture.identifiers("light", domain: "com.test.b") == [])
    }

    @Test func filtersAndPagesAreCachedApart() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert((0..<5).map { item("i\($0)", domain: $0 < 2 ? "com.test.x" : "com.test.y", title: "Harbour \($0)") })
        #expect(try await fixture.identifiers("harbour", limit: 2) == ["i0", "i1"])
        #expect(try await fixture.identifiers("harbour", limit: 2, offset: 2) == ["i2", "i3"])
        #expect(try await fixture.identifiers("harbour", domain: "com.test.y", limit: 2) == ["i2", "i3"])
        #expect(try await fixture.identifiers("harbour", type: "public.image") == [])
    }

    @Test func theLeastRecentlyUsedEntryGoesFirst() throws {
        let cache = SearchResultCache(maxEntries: 2)
        func key(_ text: String) throws -> SearchResultCache.Key {
            SearchResultCache.Key(query: try SearchQuery(text: text), terms: SearchTerms(text), now: Date())
        }
        let results = SearchResults(total: 0, totalIsExact: true, hits: [])
        let now = Date(timeIntervalSince1970: 0)
        // Each computed twice: the doorkeeper keeps a result the second time.
        for text in ["a", "b", "a", "b"] { cache.store(results, for: try key(text), commitNumber: 1, validUntil: .distantFuture, generation: cache.generation) }
        #expect(cache.results(for: try key("a"), commitNumber: 1, now: now) != nil)
        for _ in 0..<2 { cache.store(results, for: try key("c"), commitNumber: 1, validUntil: .distantFuture, generation: cache.generation) }
        #expect(cache.results(for: try key("b"), commitNumber: 1, now: now) == nil, "b was used least recently")
        #expect(cache.results(for: try key("a"), commitNumber: 1, now: now) != nil)
        #expect(cache.results(for: try key("a"), commitNumber: 2, now: now) == nil, "another commit")
        #expect(SearchResultCache(maxEntries: 0).results(for: try key("a"), commitNumber: 1, now: now) == nil)
    }

    /// A cached answer keeps its rendering (the API's JSON body): made by the first answer that renders it, reused by
    /// the next, and never carried by results that changed, nor encoded or compared with them.
    @Test func cachedResultsKeepTheirRenderingAndChangedOnesDropIt() throws {
        let cache = SearchResultCache(maxEntries: 2)
        let key = SearchResultCache.Key(query: try SearchQuery(text: "a"), terms: SearchTerms("a"), now: Date())
        let computed = SearchResults(total: 3, totalIsExact: true, hits: [])
        #expect(computed.rendering == nil, "results not from the cache are rendered by each answer")
        for _ in 0..<2 { cache.store(computed, for: key, commitNumber: 1, validUntil: .distantFuture, generation: cache.generation) }
        let cached = try #require(cache.results(for: key, commitNumber: 1, now: Date(timeIntervalSince1970: 0)))
        var renders = 0
        for _ in 0..<3 {
            let bytes = cached.rendering?.bytes { renders += 1; return Array("body".utf8) }
            #expect(bytes == Array("body".utf8))
        }
        #expect(renders == 1, "rendered once")
        let again = try #require(cache.results(for: key, commitNumber: 1, now: Date(timeIntervalSince1970: 0)))
        #expect(again.rendering?.bytes { nil } == Array("body".utf8), "the next answer from the cache takes the same bytes")
        #expect(again == computed && again.hashValue == computed.hashValue, "the rendering is not part of the value")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(again) == encoder.encode(computed), "nor is it encoded")
        var changed = again
        changed.total = 4
        #expect(changed.rendering == nil, "results that changed drop the rendering of what they were")
        for change: (inout SearchResults) -> Void in [{ $0.hits = [] }, { $0.totalIsExact = false }, { $0.facets = [:] }, { $0.facetsAreExact = true }] {
            var results = again
            change(&results)
            #expect(results.rendering == nil)
        }
    }

    /// A result computed once is not kept (most are never asked again); computed twice, it is; gone stale with a
    /// commit, it is kept again the next time it is computed.
    @Test func aResultIsKeptTheSecondTimeItIsComputed() throws {
        let cache = SearchResultCache(maxEntries: 1)
        let results = SearchResults(total: 0, totalIsExact: true, hits: [])
        let now = Date(timeIntervalSince1970: 0)
        func key(_ text: String) throws -> SearchResultCache.Key {
            SearchResultCache.Key(query: try SearchQuery(text: text), terms: SearchTerms(text), now: now)
        }
        func store(_ text: String, commit: Int64 = 1) throws {
            cache.store(results, for: try key(text), commitNumber: commit, validUntil: .distantFuture, generation: cache.generation)
        }
        try store("once")
        #expect(cache.results(for: try key("once"), commitNumber: 1, now: now) == nil, "computed once: not kept")
        try store("once")
        #expect(cache.results(for: try key("once"), commitNumber: 1, now: now) != nil, "computed twice: kept")
        #expect(cache.results(for: try key("once"), commitNumber: 2, now: now) == nil, "stale after a commit")
        try store("once", commit: 2)
        #expect(cache.results(for: try key("once"), commitNumber: 2, now: now) != nil, "a stale result is kept again at once")
        // The doorkeeper remembers the last 4 sightings (four times the entries): a fifth pushes out the first...
        for text in ["k1", "k2", "k3", "k4", "k5"] { try store(text) }
        try store("k1")
        #expect(cache.results(for: try key("k1"), commitNumber: 1, now: now) == nil, "forgotten by the doorkeeper: seen once again")
        // ...unless the key was seen again since: "r" is kept, pushed out of the cache by "s", then seen once more; the
        // sighting that comes round in the ring is its first, not its last.
        for text in ["r", "r", "s", "s", "r", "t", "u"] { try store(text) }
        #expect(cache.results(for: try key("r"), commitNumber: 1, now: now) == nil, "pushed out by s")
        try store("r")
        #expect(cache.results(for: try key("r"), commitNumber: 1, now: now) != nil, "remembered from its last sighting")
        // Results a change without a commit cleared (opens recorded) are kept again at their next computation.
        cache.removeAll()
        try store("r")
        #expect(cache.results(for: try key("r"), commitNumber: 1, now: now) != nil, "kept at once after the clearing")
    }

    /// Random stores, lookups, lookups at another commit and clearings against a plain model of a least-recently-used
    /// cache of 5 entries behind a doorkeeper that remembers the last 20 sightings of keys not kept: the cache answers
    /// exactly when the model holds the key.
    @Test func evictionFollowsAModelOfLeastRecentlyUsed() throws {
        let cache = SearchResultCache(maxEntries: 5)
        let results = SearchResults(total: 0, totalIsExact: true, hits: [])
        let now = Date(timeIntervalSince1970: 0)
        let keys = try (0..<12).map { SearchResultCache.Key(query: try SearchQuery(text: "k\($0)"), terms: SearchTerms("k\($0)"), now: now) }
        var model: [Int] = []  // least recently used first
        var sightings: [Int: Int] = [:]  // the doorkeeper: each key's latest sighting
        var sightingCount = 0
        func seenOnce(_ k: Int) -> Bool { sightings.removeValue(forKey: k).map { $0 > sightingCount - 20 } ?? false }
        func sight(_ k: Int) {
            sightingCount += 1
            sightings[k] = sightingCount
        }
        var seed: UInt64 = 2_025
        func draw(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<5_000 {
            let k = draw(keys.count)
            switch draw(10) {
            case 0..<4:
                cache.store(results, for: keys[k], commitNumber: 1, validUntil: .distantFuture, generation: cache.generation)
                guard seenOnce(k) || model.contains(k) else {
                    sight(k)
                    continue
                }
                model.removeAll { $0 == k }
                if model.count == 5 { model.removeFirst() }
                model.append(k)
            case 4..<8:
                let found = cache.results(for: keys[k], commitNumber: 1, now: now) != nil
                #expect(found == model.contains(k))
                if found {
                    model.removeAll { $0 == k }
                    model.append(k)
                }
            case 8:
                #expect(cache.results(for: keys[k], commitNumber: 2, now: now) == nil)
                if model.contains(k) { sight(k) }
                model.removeAll { $0 == k }
            default:
                if draw(10) == 0 {
                    cache.removeAll()
                    for k in model { sight(k) }  // least recently used first, as the cache remembers them
                    model.removeAll()
                }
            }
        }
    }
}
