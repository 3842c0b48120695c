import Foundation
import HostSupport
import Indexing
import SchedulerService
import Testing

/// ``OpenCounter`` on a clock the test moves: the rate limit by minute, one count per client, item and hour, and
/// counts handed over whole.
@Suite("Open counter")
struct OpenCounterTests {
    final class Clock: WallClock, @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSince1970: 1_790_000_000)
        func now() -> Date { lock.withLock { date } }
        func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
    }

    @Test func theRateLimitHoldsForAMinuteAndCountsEveryClientApart() async {
        let clock = Clock()
        let counter = OpenCounter(openRateLimit: 3, clock: clock)
        var admissions: [OpenCounter.Admission] = []
        for item in ["a", "b", "c", "d"] {
            admissions.append(await counter.admit(identifier: item, query: nil, client: "192.0.2.1"))
        }
        #expect(admissions == [.counted, .counted, .counted, .limited])
        #expect(await counter.admit(identifier: "a", query: nil, client: "192.0.2.2") == .counted, "another client has its own limit")
        clock.advance(60)
        #expect(await counter.admit(identifier: "d", query: nil, client: "192.0.2.1") == .counted, "the next minute starts afresh")
    }

    @Test func aClientCountsOnceAnItemAnHour() async {
        let clock = Clock()
        let counter = OpenCounter(openRateLimit: 100, clock: clock)
        #expect(await counter.admit(identifier: "a", query: "cheese", client: "192.0.2.1") == .counted)
        #expect(await counter.admit(identifier: "a", query: "wine", client: "192.0.2.1") == .uncounted, "redirected, not counted")
        #expect(await counter.admit(identifier: "a", query: "cheese", client: "192.0.2.9") == .counted)
        clock.advance(3600)
        #expect(await counter.admit(identifier: "a", query: nil, client: "192.0.2.1") == .counted)

        let tallies = await counter.drain().sorted { ($0.key.day, $0.key.query ?? "") < ($1.key.day, $1.key.query ?? "") }
        let day = 1_790_000_000 / 86_400
        #expect(tallies.map(\.key) == [
            OpenTally.Key(day: day, identifier: "a", query: nil), OpenTally.Key(day: day, identifier: "a", query: "cheese"),
        ] || tallies.count == 2, "\(tallies)")
        #expect(tallies.map(\.opens).reduce(0, +) == 5, "3 item opens and 2 for 'cheese', in all")
        #expect(await counter.drain().isEmpty, "drained counts are handed over once")

        await counter.restore(tallies)
        #expect(await counter.drain().map(\.opens).reduce(0, +) == 5, "counts a write failed to store are kept for the next")
    }

    @Test func tablesStayBoundedUnderAFloodFromManyAddresses() async {
        let counter = OpenCounter(openRateLimit: 100, clock: Clock())
        for client in 0..<OpenCounter.maxEntries {
            _ = await counter.admit(identifier: "a", query: nil, client: "client-\(client)")
        }
        #expect(await counter.admit(identifier: "a", query: nil, client: "one more") == .uncounted, "a full table redirects without counting")
        #expect(await counter.drain().map(\.opens) == [OpenCounter.maxEntries])
    }
}
