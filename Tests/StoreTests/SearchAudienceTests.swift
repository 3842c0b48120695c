import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// What a search key or tenant token lets a search find (``SearchAudience``), alike on every store, PostgreSQL's
/// search copy included: hits, totals, facets and the newest-first order hold nothing outside its domains, whatever
/// `domain=` asks, nor an item whose `access` names none of its groups; a cached answer for one audience is never
/// served to another. The keys themselves are kept by every store.
@Suite("Search within an audience's domains, on every store")
struct SearchAudienceTests {
    static let clock = StoreConformanceTests.clock

    static let items = [
        ("shop-1", "com.shop"), ("shop-fr-1", "com.shop.fr"), ("shop-fr-2", "com.shop.fr"), ("shopping-1", "com.shopping"),
        ("help-1", "com.help"), ("help-staff-1", "com.help.staff"),
    ].map { id, domain in SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, contentType: "page", title: "Cheese \(id)") }

    static func search(
        _ store: any SchedulerStore, _ domains: [String]?, groups: [String]? = nil, domain: String? = nil, sort: SearchSort = .relevance,
        facets: [SearchFacet] = [], text: String = "cheese"
    ) async throws -> SearchResults {
        var query = try SearchQuery(text: text, domain: domain, limit: 100, facets: facets, sort: sort)
        query.audience = SearchAudience(domains: domains, groups: groups)
        return try await store.index.search(query)
    }

    static func ids(_ results: SearchResults) -> [String] { results.hits.map(\.uniqueIdentifier).sorted() }

    @Test(arguments: StoreBackend.searching)
    func aSearchFindsOnlyTheAudiencesDomainsWhateverItAsks(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.items)
            #expect(Self.ids(try await Self.search(store, nil)).count == 6, "everyone finds everything")
            let shop = try await Self.search(store, ["com.shop"])
            #expect(Self.ids(shop) == ["shop-1", "shop-fr-1", "shop-fr-2"], "a domain and those under it, not com.shopping")
            #expect(shop.total == 3 && shop.totalIsExact)
            #expect(Self.ids(try await Self.search(store, ["com.shop"], domain: "com.shop.fr")) == ["shop-fr-1", "shop-fr-2"], "narrowed by domain=")
            #expect(Self.ids(try await Self.search(store, ["com.shop.fr"], domain: "com.shop")) == ["shop-fr-1", "shop-fr-2"], "never widened by domain=")
            let outside = try await Self.search(store, ["com.shop"], domain: "com.help")
            #expect(outside.hits.isEmpty && outside.total == 0, "a domain outside the audience finds nothing")
            #expect(Self.ids(try await Self.search(store, ["com.help.staff", "com.shop.fr"])) == ["help-staff-1", "shop-fr-1", "shop-fr-2"])
            let newest = try await Self.search(store, ["com.help"], sort: .newest, facets: [.domain])
            #expect(Self.ids(newest) == ["help-1", "help-staff-1"])
            #expect(newest.facets?["domain"]?.keys.sorted() == ["com.help", "com.help.staff"], "facets count only what the audience finds")
            #expect(Self.ids(try await Self.search(store, nil)).count == 6, "a cached answer for one audience is not another's")
        }
    }

    /// Items only some may find (`access`), on every store and through every path of a search.
    static let restricted = [
        SearchableItem(uniqueIdentifier: "open", domainIdentifier: "com.help", title: "Refund policy"),
        SearchableItem(uniqueIdentifier: "staff", domainIdentifier: "com.help", title: "Refund override", access: ["staff"]),
        SearchableItem(uniqueIdentifier: "finance", domainIdentifier: "com.help", title: "Refund ledger", access: ["finance", "audit"]),
    ]

    @Test(arguments: StoreBackend.searching)
    func anItemWithAccessIsFoundOnlyByItsGroups(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            try await store.index.upsert(Self.restricted)
            func ids(_ groups: [String]?, sort: SearchSort = .relevance) async throws -> [String] {
                Self.ids(try await Self.search(store, nil, groups: groups, sort: sort, facets: [.domain], text: "refund"))
            }
            #expect(try await ids([]) == ["open"], "no group: the items without access")
            #expect(try await ids(["staff"]) == ["open", "staff"])
            #expect(try await ids(["audit", "nobody"]) == ["finance", "open"], "one shared name is enough")
            #expect(try await ids(["Staff"]) == ["open"], "names compare exactly")
            try await store.index.upsert([SearchableItem(uniqueIdentifier: "cafe", domainIdentifier: "com.help", title: "Refund café", access: ["caf\u{E9}"])])
            #expect(try await ids(["cafe\u{301}"]) == ["open"], "byte for byte: a decomposed é is another group, on every path")
            #expect(try await ids(["caf\u{E9}"]) == ["cafe", "open"])
            _ = try await store.index.delete(identifiers: ["cafe"])
            #expect(try await ids(nil) == ["finance", "open", "staff"], "operators find every item")
            #expect(try await ids([], sort: .newest) == ["open"])
            let counted = try await Self.search(store, nil, groups: [], facets: [.domain], text: "refund")
            #expect(counted.total == 1 && counted.facets?["domain"]?["com.help"] == 1, "nothing of a hidden item leaks through counts")
            #expect(try await ids(["staff"]) == ["open", "staff"], "a cached answer for one group is not another's")
            try await store.index.upsert([Self.restricted[1].with { $0.access = nil }])
            #expect(try await ids([]) == ["open", "staff"], "access lifted: a changed access is a change")
            let item = try #require(try await store.index.item(withIdentifier: "finance"))
            #expect(item.access == ["finance", "audit"], "stored and returned as written")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func keysAreKeptListedAndRevoked(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Self.clock) { store in
            #expect(try await store.searchKeys().isEmpty)
            let first = SearchKey(uid: SearchKeyUIDs.first, name: "shop", domains: ["com.shop", "com.help"], expires: nil, createdAt: Self.clock.now())
            let second = SearchKey(
                uid: SearchKeyUIDs.second, name: "help", domains: ["com.help"], expires: Self.clock.now().addingTimeInterval(3600),
                createdAt: Self.clock.now().addingTimeInterval(1)
            )
            try await store.addSearchKey(first)
            try await store.addSearchKey(second)
            #expect(try await store.searchKeys() == [first, second], "oldest first, every field as written")
            #expect(try await store.revokeSearchKey(uid: first.uid))
            #expect(try await store.revokeSearchKey(uid: first.uid) == false, "a key is revoked once")
            #expect(try await store.searchKeys() == [second])
        }
    }

    enum SearchKeyUIDs {
        static let first = String(repeating: "a", count: 32), second = String(repeating: "b", count: 32)
    }
}

@Suite("A search audience's domains")
struct SearchAudienceDomainTests {
    @Test func theDomainsSearchedAreTheAskedOneWithinTheAudiences() {
        let shop = SearchAudience(domains: ["com.shop.fr", "com.shop", "com.help"], groups: nil)
        #expect(shop.domains == ["com.help", "com.shop"], "one under another is dropped; sorted, for the cache's key")
        #expect(shop.searched(asking: nil) == ["com.help", "com.shop"])
        #expect(shop.searched(asking: "com.shop.fr") == ["com.shop.fr"])
        #expect(SearchAudience(domains: ["com.shop.fr", "com.shop.de"], groups: nil).searched(asking: "com.shop") == ["com.shop.de", "com.shop.fr"])
        #expect(shop.searched(asking: "com.shopping") == [], "a prefix of the text is not a domain above")
        #expect(SearchAudience.anyone.searched(asking: nil) == nil && SearchAudience.anyone.searched(asking: "com.a") == ["com.a"])
        #expect(SearchAudience(domains: nil, groups: ["b", "a", "b"]).groups == ["a", "b"])
        #expect(SearchAudience(domains: nil, groups: ["caf\u{E9}", "cafe\u{301}"]).groups?.count == 2, "two spellings, two groups")
        #expect(!SearchAudience(domains: nil, groups: ["cafe\u{301}"]).mayFind(access: ["caf\u{E9}"]))
        #expect(SearchAudience.anyone.mayFind(access: nil) && !SearchAudience.anyone.mayFind(access: ["staff"]) && SearchAudience.operators.mayFind(access: ["staff"]))
        #expect(shop.mayFind(domain: "com.shop.fr.paris") && !shop.mayFind(domain: "com.shopping") && !shop.mayFind(domain: "com"))
    }
}
