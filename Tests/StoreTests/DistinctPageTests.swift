import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// `distinct=page`: at most one hit a page, the best of a page and its sections, pages counted; alike on every store.
@Suite("Hits grouped by page, on every store")
struct DistinctPageTests {
    static let clock = StoreConformanceTests.clock

    static func section(_ page: String, _ anchor: String, _ title: String, text: String? = nil, created: String? = nil) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: page + "#" + anchor, domainIdentifier: "com.docs", title: title, contentDescription: text,
            contentCreationDate: created.map(AuthorsAndDatesTests.day), relatedUniqueIdentifier: page
        )
    }

    static func page(_ id: String, _ title: String, text: String? = nil, created: String? = nil) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: id, domainIdentifier: "com.docs", title: title, contentDescription: text, contentCreationDate: created.map(AuthorsAndDatesTests.day)
        )
    }

    static let docs = [
        page("install", "Install", text: "Getting the tool onto your machine", created: "2024-01-01"),
        section("install", "linux", "On Linux", text: "Install the package", created: "2024-01-01"),
        section("install", "package-managers", "Package managers", text: "apt, dnf and pacman", created: "2024-01-01"),
        page("packages", "Packages", text: "How we package releases", created: "2023-01-01"),
        section("upgrade", "packages", "Upgrading packages", created: "2025-01-01"),
        page("upgrade", "Upgrade", created: "2025-01-01"),
        page("faq", "FAQ", text: "Questions", created: "2022-01-01"),
    ]

    static func search(_ store: any SchedulerStore, _ text: String, sort: SearchSort = .relevance, limit: Int = 20, offset: Int = 0) async throws -> SearchResults {
        try await store.index.search(SearchQuery(text: text, limit: limit, offset: offset, sort: sort, distinct: .page))
    }

    @Test(arguments: StoreBackend.searching)
    func eachPageIsShownOnceByItsBestHitAndPagesAreCounted(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.docs)
            let all = try await store.index.search(SearchQuery(text: "packag"))
            #expect(all.total == 4, "without grouping, every item")
            let grouped = try await Self.search(store, "packag")
            #expect(grouped.hits.map(\.uniqueIdentifier) == ["packages", "install#package-managers", "upgrade#packages"])
            #expect(grouped.total == 3 && grouped.totalIsExact, "pages are counted")
            #expect(try await Self.search(store, "install").hits.map(\.uniqueIdentifier) == ["install"], "a page above its sections")
            #expect(try await Self.search(store, "linux").hits.map(\.uniqueIdentifier) == ["install#linux"], "a section stands for its page")
            var paged: [String] = []
            for offset in 0..<3 { paged += try await Self.search(store, "packag", limit: 1, offset: offset).hits.map(\.uniqueIdentifier) }
            #expect(paged == ["packages", "install#package-managers", "upgrade#packages"], "pages cut the same order")
        }
    }

    @Test(arguments: StoreBackend.searching)
    func newestFirstOrdersPagesByTheirDate(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.docs)
            let newest = try await Self.search(store, "packag", sort: .newest)
            #expect(newest.hits.map(\.uniqueIdentifier) == ["upgrade#packages", "install#package-managers", "packages"])
            #expect(newest.total == 3 && newest.totalIsExact)
            var paged: [String] = []
            for offset in 0..<3 { paged += try await Self.search(store, "packag", sort: .newest, limit: 1, offset: offset).hits.map(\.uniqueIdentifier) }
            #expect(paged == newest.hits.map(\.uniqueIdentifier))
        }
    }
}
