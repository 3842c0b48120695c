import Foundation
@testable import Indexing
import PluginAPI
@testable import SQLiteStore
import Testing

@Suite("Searching")
struct SearchTests {
    @Test func everyWordMatchesAsAPrefixAndResultsNarrowWithEachLetter() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([
            item("cheetah", title: "Cheetah"), item("cherry", title: "Cherry pie"), item("chair", title: "Chair"),
            item("cat", title: "Cat"),
        ])
        #expect(Set(try await fixture.identifiers("c")) == ["cheetah", "cherry", "chair", "cat"])
        #expect(Set(try await fixture.identifiers("ch")) == ["cheetah", "cherry", "chair"])
        #expect(Set(try await fixture.identifiers("che")) == ["cheetah", "cherry"])
        #expect(try await fixture.identifiers("chee") == ["cheetah"])
        #expect(try await fixture.identifiers("cher pi") == ["cherry"], "every word must match")
        #expect(try await fixture.identifiers("cher cake") == ["cherry"], "unless none matches them all: then the last words are dropped")
        #expect(try await fixture.identifiers("cake").isEmpty)
    }

    @Test(arguments: ["ECOLE", "école", "Éco", "e\u{301}cole", "ecol"])
    func matchingIgnoresCaseAndDiacritics(query: String) async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("school", title: "École normale"), item("other", title: "College")])
        #expect(try await fixture.identifiers(query) == ["school"])
    }

    @Test func titleRanksAboveDisplayNameAboveKeywordsAboveDescription() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([
            item("in-description", title: "Alpha", description: "a zebra crossing the road in the morning"),
            item("in-keywords", title: "Beta", keywords: ["zebra", "stripes"]),
            item("in-display-name", title: "Gamma", displayName: "Zebra crossing"),
            item("in-title", title: "Zebra crossing guide"),
        ])
        #expect(try await fixture.identifiers("zeb") == ["in-title", "in-display-name", "in-keywords", "in-description"])
    }

    @Test func aRankingHintLiftsAnItem() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([
            item("plain", title: "Red wine"), item("hinted", title: "Red wine", rankingHint: 80),
            item("zero", title: "Red wine", rankingHint: 0),
        ])
        let results = try await fixture.index.search(SearchQuery(text: "red wine"))
        #expect(results.hits.first?.uniqueIdentifier == "hinted")
        #expect(results.hits[0].score > results.hits[1].score)
    }

    @Test func filtersByDomainHierarchicallyAndByContentType() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([
            item("shop", domain: "com.shop", title: "Shoes"),
            item("shop-fr", domain: "com.shop.fr", title: "Shoes FR", type: "public.image"),
            item("shopping", domain: "com.shopping", title: "Shoes elsewhere"),
        ])
        #expect(Set(try await fixture.identifiers("shoe", domain: "com.shop")) == ["shop", "shop-fr"])
        #expect(try await fixture.identifiers("shoe", domain: "com.shop.fr") == ["shop-fr"])
        #expect(try await fixture.identifiers("shoe", type: "public.image") == ["shop-fr"])
        #expect(try await fixture.identifiers("shoe", domain: "com.shopping", type: "public.image").isEmpty)
    }

    @Test func aWholeWordRanksAboveAPrefixAndAShortFieldAboveALongOne() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([
            item("prefix", title: "Cheesecake board"), item("long", title: "Cheese of the mountains of the south west"),
            item("short", title: "Cheese board"),
        ])
        #expect(try await fixture.identifiers("cheese board") == ["short", "prefix"])
        #expect(try await fixture.identifiers("cheese").first == "short", "the shorter of the two exact titles")
    }

    @Test func aHighRankingHintIsFoundFirstAmongManyMatches() async throws {
        let fixture = try IndexFixture()
        let many = (1...300).map { item("plain-\($0)", title: "Common word") }
        try await fixture.index.upsert(many + [item("promoted", title: "Common word", rankingHint: 90)])
        #expect(try await fixture.identifiers("comm", limit: 1) == ["promoted"])
    }

    @Test func bestFieldMatchesAreFoundBehindHundredsOfEarlierMatchesInOtherFields() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert(
            (1...300).map { item("description-\($0)", title: "Item \($0)", description: "a zebra in the text") }
                + (1...150).map { item("keywords-\($0)", title: "Item k\($0)", keywords: ["zebra"]) }
                + [item("name", title: "Item n", displayName: "Zebra"), item("title", title: "Zebra")]
        )
        let found = try await fixture.identifiers("zebr", limit: 3)
        #expect(found == ["title", "name", "keywords-1"])
    }

    @Test func theTotalIsExactUpToAHundredOrThePagesEndThenALowerBound() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert((1...300).map { item("i\($0)", domain: $0 <= 90 ? "com.a" : "com.b", title: "Bulk") })
        let all = try await fixture.index.search(SearchQuery(text: "bulk"))
        let some = try await fixture.index.search(SearchQuery(text: "bulk", domain: "com.a"))
        let deep = try await fixture.index.search(SearchQuery(text: "bulk", limit: 50, offset: 200))
        let last = try await fixture.index.search(SearchQuery(text: "bulk", limit: 100, offset: 250))
        #expect(all.total == 100 && !all.totalIsExact)
        #expect(some.total == 90 && some.totalIsExact)
        #expect(deep.total == 250 && !deep.totalIsExact && deep.hits.count == 50)
        #expect(last.total == 300 && last.totalIsExact && last.hits.count == 50)
    }

    @Test func limitAndOffsetPageThroughResultsAndTotalCountsAll() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert((1...25).map { item(String(format: "i%02d", $0), title: "Page item") })
        let first = try await fixture.index.search(SearchQuery(text: "page", limit: 10))
        let third = try await fixture.index.search(SearchQuery(text: "page", limit: 10, offset: 20))
        #expect(first.total == 25 && first.totalIsExact)
        #expect(first.hits.count == 10)
        #expect(third.hits.count == 5)
        #expect(Set(first.hits.map(\.uniqueIdentifier)).isDisjoint(with: third.hits.map(\.uniqueIdentifier)))
    }

    @Test func hitsCarryTheDeepLinkAndFields() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("a", title: "Deep link", keywords: ["k1", "k2"], rankingHint: 5)])
        let hit = try #require(try await fixture.index.search(SearchQuery(text: "deep")).hits.first)
        #expect(hit.contentURL == "test://item/a")
        #expect(hit.keywords == ["k1", "k2"])
        #expect(hit.rankingHint == 5)
    }

    static let hostileQueries: [String] = [
        "\"", "\"unbalanced", "AND", "OR NOT", "NEAR(a b, 2)", "*", "-", "-cheese", "(", ")", "((a)", "a:b",
        "title:cheese", "{title}: x", "^start", "a + b", "'; DROP TABLE item; --", "\u{0}", "😀", "🧀 cheese",
        "\\", "%_", "NOT", "\"\"*", "a*b*c", "  ", "", String(repeating: "cheese AND \"x\" OR (y) ", count: 500),
        String(repeating: "é", count: 10_000), "\u{202E}evil", "x\u{301}\u{301}\u{301}",
    ]

    @Test(arguments: hostileQueries)
    func anyTextIsSafeToSearch(query: String) async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("cheese", title: "Cheese and crackers"), item("other", title: "Bread")])
        let results = try await fixture.index.search(SearchQuery(text: query))
        #expect(results.hits.allSatisfy { $0.uniqueIdentifier == "cheese" })
        #expect(try await fixture.index.item(withIdentifier: "other") != nil, "the index is intact")
    }

    @Test func operatorsAreSearchedAsPlainWords() async throws {
        let fixture = try IndexFixture()
        try await fixture.index.upsert([item("salt", title: "Salt and pepper"), item("rock", title: "Rock or roll")])
        #expect(try await fixture.identifiers("AND") == ["salt"])
        #expect(try await fixture.identifiers("\"pepper\" AND -salt") == ["salt"])
        #expect(try await fixture.identifiers("OR") == ["rock"])
    }

    @Test(arguments: [(0, 0), (1001, 0), (10, -1), (10, 10_001)])
    func anOutOfRangePageIsRefused(limit: Int, offset: Int) {
        #expect(throws: SearchQueryError.self) { try SearchQuery(text: "x", limit: limit, offset: offset) }
    }

    @Test func aMalformedDomainFilterIsRefused() {
        #expect(throws: SearchQueryError.self) { try SearchQuery(text: "x", domain: "com..x") }
    }
}
