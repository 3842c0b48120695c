import Foundation
import HostSupport
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// The order of hits users see, pinned for a fixed corpus and query set on every store: a change to how the index
/// finds or ranks candidates (issue 25 changes the structure) must keep it, or change this table on purpose.
@Suite("The order of hits, pinned")
struct RankingOrderTests {
    /// 230 items: fields of every kind and length, hints, accents, and a broad word ("common") in 200 descriptions,
    /// so the candidate cut (100 per scan) is crossed.
    static var corpus: [SearchableItem] {
        var items = [
            SearchableItem(uniqueIdentifier: "title-cheese", domainIdentifier: "com.r.a", title: "Cheese"),
            SearchableItem(uniqueIdentifier: "title-cheese-boards", domainIdentifier: "com.r.a", title: "Cheese boards and knives for the table"),
            SearchableItem(uniqueIdentifier: "name-cheese", domainIdentifier: "com.r.a", title: "Platters", displayName: "Cheese platters"),
            SearchableItem(uniqueIdentifier: "keyword-cheese", domainIdentifier: "com.r.b", title: "Dairy", keywords: ["cheese", "milk"]),
            SearchableItem(uniqueIdentifier: "description-cheese", domainIdentifier: "com.r.b", title: "Wine", contentDescription: "pairs well with cheese"),
            SearchableItem(uniqueIdentifier: "prefix-cheesecake", domainIdentifier: "com.r.b", title: "Cheesecake"),
            SearchableItem(uniqueIdentifier: "hinted-cheese", domainIdentifier: "com.r.c", title: "Cheese of the month", rankingHint: 80),
            SearchableItem(uniqueIdentifier: "ecole", domainIdentifier: "com.r.c", title: "École du fromage", contentDescription: "cheese school"),
            SearchableItem(uniqueIdentifier: "delivery", domainIdentifier: "com.r.c", title: "Délais de livraison", keywords: ["shipping"]),
            SearchableItem(uniqueIdentifier: "delivery-en", domainIdentifier: "com.r.c", title: "Delivery times", displayName: "Shipping"),
            SearchableItem(uniqueIdentifier: "returns", domainIdentifier: "com.r.d", title: "Returning an order", contentDescription: "how to return cheese that arrived damaged"),
            SearchableItem(uniqueIdentifier: "gift", domainIdentifier: "com.r.d", title: "Gift cards", keywords: ["present", "voucher"], rankingHint: 20),
            SearchableItem(uniqueIdentifier: "tie-first", domainIdentifier: "com.r.d", title: "Tie breaker"),
            SearchableItem(uniqueIdentifier: "tie-second", domainIdentifier: "com.r.d", title: "Tie breaker"),
            SearchableItem(uniqueIdentifier: "common-title-late", domainIdentifier: "com.r.e", title: "Common questions"),
            SearchableItem(uniqueIdentifier: "common-name-late", domainIdentifier: "com.r.e", title: "FAQ", displayName: "Common answers"),
        ]
        for number in 0..<200 {
            items.insert(
                SearchableItem(
                    uniqueIdentifier: String(format: "filler-%03d", number), domainIdentifier: "com.r.f", title: "Filler \(number)",
                    contentDescription: "a common word in a description of \(number % 7 == 0 ? "short" : "a rather longer text with more words in it")",
                    rankingHint: number % 3 == 0 ? 10 : nil
                ),
                at: number % 2 == 0 ? 0 : items.count
            )
        }
        return items
    }

    /// Each query and the identifiers of its first hits, best first.
    static let expected: [(query: String, hits: [String])] = [
        // A title that is exactly the typed words first ("Cheese"), above a higher hint; then the titles holding the
        // word, whole ones above "Cheesecake", which holds it only as a prefix; then the other fields, best first: a
        // title holding the word as a prefix comes before a display name holding it whole (issue 60's field rule, as
        // Algolia's "attribute" and Meilisearch's rules order them; issue 26 had every whole word first).
        ("cheese", ["title-cheese", "hinted-cheese", "title-cheese-boards", "prefix-cheesecake", "name-cheese", "keyword-cheese", "ecole", "description-cheese"]),
        ("chee", ["hinted-cheese", "title-cheese", "prefix-cheesecake", "title-cheese-boards", "name-cheese", "keyword-cheese", "ecole", "description-cheese"]),
        ("ch", ["hinted-cheese", "title-cheese", "prefix-cheesecake", "title-cheese-boards", "name-cheese", "keyword-cheese", "ecole", "description-cheese"]),
        ("cheese boards", ["title-cheese-boards"]),
        ("livr", ["delivery"]),
        ("ecole", ["ecole"]),
        ("shipping", ["delivery-en", "delivery"]),
        ("common", ["common-title-late", "common-name-late", "filler-168", "filler-126", "filler-084", "filler-042", "filler-000", "filler-021"]),
        ("comm", ["common-title-late", "common-name-late", "filler-168", "filler-126", "filler-084", "filler-042", "filler-000", "filler-021"]),
        ("co", ["common-title-late", "common-name-late", "filler-168", "filler-126", "filler-084", "filler-042", "filler-000", "filler-021"]),
        ("tie", ["tie-first", "tie-second"]),
        ("gift", ["gift"]),
        ("return cheese", ["returns"]),
        ("filler 1", ["filler-001", "filler-198", "filler-192", "filler-186", "filler-180", "filler-174", "filler-168", "filler-162"]),
        ("common short", ["filler-168", "filler-126", "filler-084", "filler-042", "filler-000", "filler-021", "filler-063", "filler-105"]),
        ("xyz", []),
    ]

    @Test(arguments: StoreBackend.searching)
    func theOrderOfHitsIsPinned(backend: StoreBackend) async throws {
        let clock = FixedWallClock(ISO8601.date(from: "2026-03-01T12:00:00Z")!)
        let observed = try await backend.withFreshStore(clock: clock) { store in
            try await store.index.upsert(Self.corpus)
            var observed: [(String, [String])] = []
            for (query, _) in Self.expected {
                let results = try await store.index.search(SearchQuery(text: query, limit: 8))
                observed.append((query, results.hits.map(\.uniqueIdentifier)))
            }
            return observed.map { "\($0.0)=\($0.1.joined(separator: ","))" }
        }
        #expect(observed == Self.expected.map { "\($0.query)=\($0.hits.joined(separator: ","))" })
    }

    /// A whole word in a long description still counts as whole: it ranks above a prefix in a description as long,
    /// indexed first.
    @Test(arguments: StoreBackend.searching)
    func aWholeWordInALongDescriptionRanksAboveAPrefix(backend: StoreBackend) async throws {
        let filler = Array(repeating: "words", count: 30).joined(separator: " ")
        let found = try await backend.withFreshStore(clock: StoreConformanceTests.clock) { store in
            try await store.index.upsert([
                SearchableItem(uniqueIdentifier: "prefix", domainIdentifier: "com.r", title: "Dessert", contentDescription: "cheesecake " + filler),
                SearchableItem(uniqueIdentifier: "whole", domainIdentifier: "com.r", title: "Dessert", contentDescription: "cheese " + filler),
            ])
            return try await store.index.search(SearchQuery(text: "cheese")).hits.map(\.uniqueIdentifier)
        }
        #expect(found == ["whole", "prefix"])
    }
}
