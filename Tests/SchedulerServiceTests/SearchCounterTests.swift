import Foundation
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
