import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Documentation pages and their sections, as the `posts` plugin indexes them (a page's `rankingHint` 10, a `##`
/// section's 5, a `###` one's none), rank as DocSearch's hierarchy does, alike on every store.
@Suite("Documentation ranking: pages, then sections by level")
struct DocsRankingTests {
    static let clock = StoreConformanceTests.clock

    static func section(_ id: String, page: String, title: String, trail: String, text: String, hint: Int?) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: id, domainIdentifier: "io.dapr.docs", title: title, displayName: trail, contentDescription: text,
            relatedUniqueIdentifier: page, rankingHint: hint
        )
    }

    /// Sections first in the index, as a site's earlier pages put them: priority order alone would favour them.
    static let items = [
        section("faq#actors", page: "faq", title: "Actors", trail: "FAQ › Actors", text: "How do actors differ", hint: 5),
        section("faq#timers#actors", page: "faq", title: "Actors", trail: "FAQ › Timers › Actors", text: "Actors and timers", hint: nil),
        section(
            "grafana#prometheus", page: "grafana", title: "Configure Prometheus as data source", trail: "Grafana › Setup › Configure Prometheus",
            text: "Getting started needs a start: port-forward to grafana", hint: nil
        ),
        SearchableItem(uniqueIdentifier: "faq", domainIdentifier: "io.dapr.docs", title: "Frequently asked questions", rankingHint: 10),
        SearchableItem(uniqueIdentifier: "grafana", domainIdentifier: "io.dapr.docs", title: "Observe metrics with Grafana", rankingHint: 10),
        SearchableItem(uniqueIdentifier: "actors", domainIdentifier: "io.dapr.docs", title: "Actors", contentDescription: "Virtual actors", rankingHint: 10),
        SearchableItem(uniqueIdentifier: "getting-started", domainIdentifier: "io.dapr.docs", title: "Getting started with Dapr", rankingHint: 10),
    ]

    static func ids(_ store: any SchedulerStore, _ text: String, distinct: SearchDistinct? = nil) async throws -> [String] {
        try await store.index.search(SearchQuery(text: text, limit: 10, distinct: distinct)).hits.map(\.uniqueIdentifier)
    }

    @Test(arguments: StoreBackend.searching)
    func aPageComesBeforeItsSectionsAndHeadingsByLevel(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            #expect(try await Self.ids(store, "actors").prefix(3) == ["actors", "faq#actors", "faq#timers#actors"], "the page, then ## then ###")
            #expect(
                try await Self.ids(store, "getting start").first == "getting-started",
                "a title holding the words before a section's text holding them whole"
            )
            #expect(try await Self.ids(store, "actors", distinct: .page).prefix(2) == ["actors", "faq#actors"], "a page once, by its best hit")
        }
    }

    /// `distinct=page`: each page's hit carries its next matching items under it, and the page counts once.
    @Test(arguments: StoreBackend.searching)
    func aPagesHitCarriesItsOtherMatchesUnderIt(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items + (1...5).map { number in
                Self.section("faq#more-\(number)", page: "faq", title: "Actors \(number)", trail: "FAQ › Actors \(number)", text: "More", hint: nil)
            })
            let results = try await store.index.search(SearchQuery(text: "actors", limit: 10, distinct: .page))
            #expect(results.hits.map(\.uniqueIdentifier) == ["actors", "faq#actors"])
            #expect(results.total == 2, "pages counted")
            #expect(results.hits[0].sections.isEmpty)
            let under = results.hits[1].sections
            #expect(under.count == 3 && under.first?.uniqueIdentifier == "faq#timers#actors", "the best 3 others, best first: \(under.map(\.uniqueIdentifier))")
            #expect(under.allSatisfy { $0.relatedUniqueIdentifier == "faq" && $0.highlights != nil }, "each highlighted as a hit")
            let second = try await store.index.search(SearchQuery(text: "actors", limit: 1, offset: 1, distinct: .page))
            #expect(second.hits.map(\.uniqueIdentifier) == ["faq#actors"] && second.hits[0].sections.count == 3, "offset counts pages")
            let plain = try await store.index.search(SearchQuery(text: "actors", limit: 10))
            #expect(plain.hits.allSatisfy(\.sections.isEmpty) && plain.hits.count == 8, "without distinct, every item is a hit of its own")
        }
    }

    /// A page is a page of its domain: an item of another source naming it its related item is a page of its own,
    /// never nested under it nor hiding it.
    @Test(arguments: StoreBackend.searching)
    func anotherDomainsItemNeverJoinsAPage(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items + [
                SearchableItem(uniqueIdentifier: "evil", domainIdentifier: "com.other", title: "Actors actors actors", relatedUniqueIdentifier: "actors"),
            ])
            let results = try await store.index.search(SearchQuery(text: "actors", limit: 10, distinct: .page))
            let ids = results.hits.map(\.uniqueIdentifier)
            #expect(ids.contains("evil") && ids.contains("actors"), "\(ids)")
            #expect(results.hits.allSatisfy { !$0.sections.contains { $0.uniqueIdentifier == "evil" } })
            #expect(results.total == 3, "three pages: actors, faq and the other domain's")
        }
    }
}
