import Foundation
import HostSupport
import PluginAPI
import StoreSupport
import Indexing
import SchedulerService
import Testing

/// ``SearchCounter``: what a person finished typing is one search; a pause or another query starts the next.
@Suite("Search counter")
struct SearchCounterTests {
    typealias Clock = OpenCounterTests.Clock

    static func counted(_ tallies: [SearchTally]) -> [String: [Int]] {
        Dictionary(uniqueKeysWithValues: tallies.map { ($0.query, [$0.searches, $0.withoutHits]) })
    }

    @Test func keystrokesOfOneQueryCountOnce() async {
        let clock = Clock()
        let counter = SearchCounter(clock: clock)
        for text in ["c", "ch", "Chee", "cheese", "cheese b", "cheese bo", "cheese boa"] {
            await counter.record(text, found: true, client: "192.0.2.1")
            clock.advance(0.3)
        }
        #expect(await counter.drain().isEmpty, "still typing")
        clock.advance(SearchCounter.typingPause)
        #expect(Self.counted(await counter.drain()) == ["cheese boa": [1, 0]])
    }

    @Test func anotherQueryOrAPauseStartsAnotherSearch() async {
        let clock = Clock()
        let counter = SearchCounter(clock: clock)
        await counter.record("wine", found: false, client: "192.0.2.1")
        await counter.record("cheese", found: true, client: "192.0.2.1")
        clock.advance(SearchCounter.typingPause + 1)
        await counter.record("cheese", found: true, client: "192.0.2.1")
        await counter.record("cheese", found: true, client: "192.0.2.2")
        await counter.record("!!!", found: false, client: "192.0.2.3")
        #expect(Self.counted(await counter.drain()) == ["wine": [1, 1], "cheese": [1, 0]], "the first cheese paused; the others are typing")
        #expect(Self.counted(await counter.drain(everything: true)) == ["cheese": [2, 0]], "at shutdown everything typed counts")
        #expect(await counter.drain(everything: true).isEmpty)
    }
}

/// ``UsageWriter``'s steps, as its loop takes them: days past the retention deleted, counts written, and at shutdown
/// the searches still being typed too.
@Suite("Usage writer")
struct UsageWriterTests {
    @Test func theWriterDeletesDaysPastTheRetentionAndWritesWhatWasCounted() async throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let today = Int(now.timeIntervalSince1970 / 86_400)
        try await StoreBackend.memory.withFreshStore(clock: FixedWallClock(now)) { store in
            try await store.index.upsert([SearchableItem(uniqueIdentifier: "a", domainIdentifier: "com.test", title: "A")])
            try await store.index.recordSearches([
                SearchTally(day: today - 10, query: "old", searches: 1, withoutHits: 0), SearchTally(day: today - 2, query: "recent", searches: 1, withoutHits: 0),
            ])
            let searches = SearchCounter(clock: FixedWallClock(now)), opens = OpenCounter(clock: FixedWallClock(now))
            await searches.record("typed", found: true, client: nil)
            let writer = UsageWriter(
                counter: opens, searches: searches, index: store.index, retention: { .seconds(3 * 86_400) }, clock: FixedWallClock(now),
                logger: .init(label: "test")
            )
            #expect(await writer.deleteExpiredCounts(today: today))
            #expect(try await store.index.analytics(since: 0, limit: 10).topQueries.map(\.query) == ["recent"], "days past the retention are gone")
            await writer.writePending()
            #expect(try await store.index.analytics(since: 0, limit: 10).topQueries.map(\.query) == ["recent"], "a query still being typed waits")
            await writer.writePending(everything: true)
            #expect(try await store.index.analytics(since: 0, limit: 10).topQueries.map(\.query).sorted() == ["recent", "typed"],
                    "what was still being typed is written when the writer stops")
        }
    }
}
