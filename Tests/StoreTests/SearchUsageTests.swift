import Foundation
import Indexing
import PluginAPI
import Store
import StoreSupport
import Testing

/// What people searched for and opened, reported the same way by every store.
@Suite("Search usage")
struct SearchUsageTests {
    typealias Conformance = StoreConformanceTests

    static let today = 20_500

    static func searched(_ query: String, _ searches: Int, withoutHits: Int = 0, daysAgo: Int = 0) -> SearchTally {
        SearchTally(day: today - daysAgo, query: query, searches: searches, withoutHits: withoutHits)
    }

    static func opened(_ identifier: String, query: String?, _ opens: Int, daysAgo: Int = 0) -> OpenTally {
        OpenTally(key: OpenTally.Key(day: today - daysAgo, identifier: identifier, query: query), opens: opens)
    }

    @Test(arguments: StoreBackend.allCases)
    func analyticsReportTopQueriesQueriesWithoutHitsClickThroughAndMostOpened(backend: StoreBackend) async throws {
        try await backend.withFreshStore(clock: Conformance.clock) { store in
            try await store.index.upsert([Conformance.item("boards", title: "Cheese boards"), Conformance.item("plates")])
            try await store.index.recordSearches([
                Self.searched("cheese", 6), Self.searched("cheese", 4, daysAgo: 1), Self.searched("wine", 5, withoutHits: 5),
                Self.searched("fromage", 2, withoutHits: 1), Self.searched("caf\u{E9}", 1), Self.searched("cafe\u{301}", 2),
                Self.searched("old", 50, withoutHits: 50, daysAgo: 30),
            ])
            try await store.index.recordSearches([Self.searched("cheese", 1)])
            try await store.index.recordOpens([
                Self.opened("boards", query: nil, 4), Self.opened("boards", query: "cheese", 3), Self.opened("plates", query: nil, 1),
                Self.opened("plates", query: "fromage", 1), Self.opened("boards", query: nil, 9, daysAgo: 30),
            ])
            let report = try await store.index.analytics(since: Self.today - 6, limit: 3)
            #expect(report.searches == 21 && report.searchesWithoutHits == 6 && report.opens == 5)
            #expect(report.topQueries.map(\.query) == ["cheese", "wine", "cafe\u{301}"], "most searched first; the two spellings of café apart")
            #expect(report.topQueries.first.map { [$0.searches, $0.withoutHits, $0.opens] } == [11, 0, 3])
            #expect(report.topQueries.first?.clickThrough == 3.0 / 11)
            #expect(report.queriesWithoutHits.map(\.query) == ["wine", "fromage"])
            #expect(report.queriesWithoutHits.last?.opens == 1)
            #expect(report.mostOpened == [
                SearchAnalytics.Item(uniqueIdentifier: "boards", title: "Cheese boards", opens: 4),
                SearchAnalytics.Item(uniqueIdentifier: "plates", title: "Item plates", opens: 1),
            ])
            #expect(report.since == Date(timeIntervalSince1970: Double(Self.today - 6) * 86_400))

            let month = try await store.index.analytics(since: Self.today - 30, limit: 1)
            #expect(month.topQueries.map(\.query) == ["old"] && month.mostOpened.first?.opens == 13)

            #expect(try await store.index.deleteUsage(before: Self.today - 1) == 2, "the old search and the old open")
            #expect(try await store.index.analytics(since: 0, limit: 10).searches == 21)
            let empty = try await store.index.analytics(since: Self.today + 1, limit: 10)
            #expect(empty.searches == 0 && empty.topQueries.isEmpty && empty.mostOpened.isEmpty && empty.opens == 0)
        }
    }
}
