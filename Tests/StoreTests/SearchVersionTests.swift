import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// Documentation published in versions side by side (``SearchVersion``), alike on every store, PostgreSQL's search
/// copy included: a search that names no version finds the current version and what has none, `version=` one
/// version, `*` all; facets count versions; an answer cached for one filter is never another's.
@Suite("Search within documentation versions, on every store")
struct SearchVersionTests {
    static let clock = StoreConformanceTests.clock

    static func page(_ version: String?, current: Bool = false, id: String? = nil) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: id ?? "docs/\(version ?? "none")/recovery", domainIdentifier: version == nil ? "io.etcd.blog" : "io.etcd.docs",
            title: "Disaster recovery", version: version, isCurrentVersion: version == nil || current
        )
    }

    static let items = [page("v3.5"), page("v3.6"), page("v3.7", current: true), page("v3.8"), page(nil)]

    static func ids(_ store: any SchedulerStore, _ version: SearchVersion, sort: SearchSort = .relevance, text: String = "recovery") async throws -> [String] {
        var query = try SearchQuery(text: text, limit: 100, sort: sort)
        query.version = version
        return try await store.index.search(query).hits.map(\.uniqueIdentifier).sorted()
    }

    @Test(arguments: StoreBackend.searching)
    func aSearchFindsTheCurrentVersionUnlessItNamesAnother(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            #expect(try await Self.ids(store, .current) == ["docs/none/recovery", "docs/v3.7/recovery"], "the current version and the unversioned")
            #expect(try await Self.ids(store, .named("v3.6")) == ["docs/v3.6/recovery"], "one version, nothing without one")
            #expect(try await Self.ids(store, .named("v3")) == [], "a version is named whole")
            #expect(try await Self.ids(store, .any).count == 5)
            #expect(try await Self.ids(store, .current, sort: .newest) == ["docs/none/recovery", "docs/v3.7/recovery"])
            #expect(try await Self.ids(store, .named("v3.8"), sort: .newest) == ["docs/v3.8/recovery"])
            var faceted = try SearchQuery(text: "disaster", limit: 1, facets: [.version])
            faceted.version = .any
            let counts = try await store.index.search(faceted)
            #expect(counts.total == 5 && counts.facets?["version"] == ["v3.5": 1, "v3.6": 1, "v3.7": 1, "v3.8": 1], "unversioned items are not counted")
            faceted.version = .current
            #expect(try await store.index.search(faceted).facets?["version"] == ["v3.7": 1])
            let hit = try #require(try await store.index.search(SearchQuery(text: "recovery", limit: 10)).hits.first { $0.version != nil })
            #expect(hit.version == "v3.7", "hits carry their version")
            let stored = try #require(try await store.index.item(withIdentifier: "docs/v3.6/recovery"))
            #expect(stored.version == "v3.6" && !stored.isCurrentVersion, "stored and returned as written")
        }
    }

    /// A new current version is a change of every page's items: the old current pages leave the default answers.
    @Test(arguments: StoreBackend.searching)
    func aNewCurrentVersionReplacesTheOldInDefaultAnswers(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            #expect(try await Self.ids(store, .current).contains("docs/v3.7/recovery"))
            try await store.index.upsert([Self.page("v3.7"), Self.page("v3.8", current: true)])
            #expect(try await Self.ids(store, .current) == ["docs/none/recovery", "docs/v3.8/recovery"], "a cached answer of before is not served")
            #expect(try await Self.ids(store, .named("v3.7")) == ["docs/v3.7/recovery"], "the old version is still there to ask for")
        }
    }
}

@Suite("The version filter a search names")
struct SearchVersionParameterTests {
    @Test func versionsAreReadAsTheyAreWritten() throws {
        #expect(try SearchVersion(parameter: nil) == .current)
        #expect(try SearchVersion(parameter: "*") == .any)
        #expect(try SearchVersion(parameter: "v3.6") == .named("v3.6"))
        for bad in ["", String(repeating: "v", count: 65), "v3\n6", "v3\u{85}"] {
            #expect(throws: SearchQueryError.self, "\(bad.debugDescription)") { try SearchVersion(parameter: bad) }
        }
        #expect(SearchVersion.current.admits(version: nil, isCurrent: true) && !SearchVersion.current.admits(version: "v1", isCurrent: false))
    }
}
